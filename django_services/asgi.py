"""
Django's ASGI application, serving static files where `runserver` would.

    # mysite/asgi.py
    from django_services.asgi import get_asgi_application

    application = get_asgi_application()

`runserver` serves `STATIC_URL` itself while `DEBUG` is on and `django.contrib.staticfiles` is
installed; an ASGI server (uvicorn, Daphne, Hypercorn) does not, so Swagger UI, Redoc and the
admin render without their scripts and styles. This application does what `runserver` does in
that case, and nothing more: with `DEBUG` off, serve static files with your web server or a
library such as WhiteNoise, as Django's deployment checklist says.
`django_services.server.socketio.get_asgi_application()` builds on it.

ASGI servers run no system checks, as `runserver` does: a service that cannot be served
(`django_services.E010`) or a `SOCKETIO_PUBLISHER` that does not import (`E011`) would fail
every request or handshake. The application refuses to start instead, naming them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["check_serving", "get_asgi_application", "serves_static_files"]


def serves_static_files() -> bool:
    """Whether `runserver` would serve static files: `DEBUG` on, staticfiles installed."""
    from django.apps import apps
    from django.conf import settings

    return bool(
        settings.DEBUG
        and apps.is_installed("django.contrib.staticfiles")
        and getattr(settings, "STATIC_URL", None)
    )


def get_asgi_application() -> Any:
    """
    Set Django up and return its ASGI application, wrapped in Django's
    `ASGIStaticFilesHandler` when `serves_static_files()`.
    """
    from django.core.asgi import get_asgi_application as django_asgi_application

    application = django_asgi_application()
    check_serving()
    if serves_static_files():
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        return ASGIStaticFilesHandler(application)
    return application


def check_serving() -> None:
    """Raise ImproperlyConfigured naming every error that would fail each request or socket."""
    from django.core.exceptions import ImproperlyConfigured

    from .checks import check_publisher, check_services

    errors = [
        message for message in [*check_services(), *check_publisher()] if message.is_serious()
    ]
    if errors:
        raise ImproperlyConfigured("\n".join(f"{message.id}: {message.msg}" for message in errors))

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
"""

from __future__ import annotations

from typing import Any

__all__ = ["get_asgi_application", "serves_static_files"]


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
    if serves_static_files():
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        return ASGIStaticFilesHandler(application)
    return application

"""
Feathers' socket.io transport, served beside Django on one port (the `socketio` extra).

    # asgi.py
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")

    from django_services.server.socketio import get_asgi_application

    application = get_asgi_application()     # REST and socket.io: uvicorn mysite.asgi:application

Socket.IO protocol 5 (socket.io and socket.io-client 3 and 4, `@feathersjs/socketio-client`),
over websocket and HTTP long-polling, at `/socket.io/`. Every service answers socket calls as
it answers REST requests: the same permissions, throttles, query language and errors.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Channel",
    "Connection",
    "Publisher",
    "SocketServer",
    "channel",
    "get_asgi_application",
]

_LAZY = {
    "Channel": ".channels",
    "Connection": ".connection",
    "Publisher": ".channels",
    "SocketServer": ".server",
    "channel": ".channels",
}


def get_asgi_application(
    django_application: Any = None, *, socketio_path: str = "socket.io", **server_options: Any
) -> Any:
    """
    The ASGI application serving socket.io at `/<socketio_path>/` and Django everywhere else.

    `django_application` defaults to Django's own, serving static files where `runserver`
    would (`django_services.asgi.get_asgi_application()`, which sets Django up).
    `server_options` go to `socketio.AsyncServer`, e.g.
    `cors_allowed_origins=["https://app.example.com"]` for browsers on another origin; without
    it only same-origin browsers may connect. The `SocketServer` is the application's `server`
    attribute.
    """
    if django_application is None:
        from ...asgi import get_asgi_application as django_asgi_application

        django_application = django_asgi_application()
    from ...asgi import request_threads_of
    from .server import SocketServer

    server = SocketServer(**server_options)
    server.request_threads = request_threads_of(django_application)
    application = server.asgi_app(django_application, socketio_path=socketio_path)
    application.server = server
    return application


def __getattr__(name: str) -> Any:
    # Importing the server needs configured settings (DRF reads them), and an asgi.py imports
    # this module before Django is set up: the classes load on first access.
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

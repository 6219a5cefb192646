"""
Connections: the client's I/O layer. Each sends requests over one HTTP library, and nothing else.

    from django_services.client.connections import Connection, Request, Response

    class MyConnection(Connection):
        def send(self, request: Request) -> Response: ...

`rest_client(base).requests(...)`, `.httpx(...)` and `.aiohttp(...)` make them over a client of
yours; a remote's `CONNECTION` names one (`"httpx-async"`, or a dotted path) and opens it over a
client of its own. The modules for httpx and aiohttp are imported only then, so neither library
is needed to import this.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .._base import Request, Response, TransportFailure
from .base import AsyncConnection, BaseConnection, Connection, missing_library

__all__ = [
    "BUILT_IN",
    "AsyncConnection",
    "BaseConnection",
    "Connection",
    "Request",
    "Response",
    "TransportFailure",
    "load",
    "missing_library",
]

#: The connections a remote's `CONNECTION` names: name -> (module, class, library, extra).
BUILT_IN: Mapping[str, tuple[str, str, str, str]] = {
    "requests": ("requests", "RequestsConnection", "requests", ""),
    "httpx": ("httpx", "HTTPXConnection", "httpx", "httpx"),
    "httpx-async": ("httpx", "AsyncHTTPXConnection", "httpx", "httpx"),
    "aiohttp": ("aiohttp", "AiohttpConnection", "aiohttp", "aiohttp"),
    "socketio": ("socketio", "SocketIOConnection", "socketio", "socketio"),
    "socketio-async": ("socketio_async", "AsyncSocketIOConnection", "socketio", "socketio"),
}


def load(name: str, *, needed_by: str | None = None) -> type[BaseConnection]:
    """
    The built-in connection class called `name` (a key of `BUILT_IN`).

    Its module is imported now; `ImportError` says which extra installs a missing library,
    and what needs it (`needed_by`, the connection by default).
    """
    module_name, class_name, library, extra = BUILT_IN[name]
    try:
        module = importlib.import_module(f"{__name__}.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != library:
            raise
        install = f"django-feathers[{extra}]" if extra else "django-feathers"
        raise ImportError(
            f"{needed_by or f'The {name!r} connection'} needs the {library} package: "
            f"pip install '{install}'"
        ) from exc
    connection_class: type[BaseConnection] = getattr(module, class_name)
    return connection_class

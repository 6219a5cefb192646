"""
Transports: the client's I/O layer. Each sends over one library, and nothing else.

    from django_services.client.transports import Transport, Request, Response

    class MyTransport(Transport):
        def send(self, request: Request) -> Response: ...

One per library: requests, httpx (sync and async), aiohttp, socket.io (sync and async, whose
calls are `SocketCall`s answered by a `SocketAck`), and in-process for tests
(`django_services.testing`). `rest_client(base).requests(...)`, `.httpx(...)` and
`.aiohttp(...)` make them over a client of yours; a remote's `CONNECTION` names one
(`"httpx-async"`, or a dotted path) and opens it over a client of its own. The modules for
httpx and aiohttp are imported only then, so neither library is needed to import this.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .._base import Request, Response, TransportFailure
from .base import AsyncTransport, BaseTransport, Transport, missing_library
from .socket_call import SocketAck, SocketCall

__all__ = [
    "BUILT_IN",
    "AsyncTransport",
    "BaseTransport",
    "Request",
    "Response",
    "SocketAck",
    "SocketCall",
    "Transport",
    "TransportFailure",
    "load",
    "missing_library",
]

#: The transports a remote's `CONNECTION` names: name -> (module, class, library, extra).
BUILT_IN: Mapping[str, tuple[str, str, str, str]] = {
    "requests": ("requests", "RequestsTransport", "requests", ""),
    "httpx": ("httpx", "HTTPXTransport", "httpx", "httpx"),
    "httpx-async": ("httpx", "AsyncHTTPXTransport", "httpx", "httpx"),
    "aiohttp": ("aiohttp", "AiohttpTransport", "aiohttp", "aiohttp"),
    "socketio": ("socketio", "SocketIOTransport", "socketio", "socketio"),
    "socketio-async": ("socketio_async", "AsyncSocketIOTransport", "socketio", "socketio"),
}


def load(name: str, *, needed_by: str | None = None) -> type[BaseTransport]:
    """
    The built-in transport class called `name` (a key of `BUILT_IN`).

    Its module is imported now; `ImportError` says which extra installs a missing library,
    and what needs it (`needed_by`, the transport by default).
    """
    module_name, class_name, library, extra = BUILT_IN[name]
    try:
        module = importlib.import_module(f"{__name__}.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != library:
            raise
        install = f"django-feathers[{extra}]" if extra else "django-feathers"
        raise ImportError(
            f"{needed_by or f'The {name!r} transport'} needs the {library} package: "
            f"pip install '{install}'"
        ) from exc
    transport_class: type[BaseTransport] = getattr(module, class_name)
    return transport_class

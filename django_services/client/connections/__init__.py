"""
Connections: each sends a request over one HTTP library, and nothing else.

    from django_services.client.connections import Connection, Request, Response

    class MyConnection(Connection):
        def send(self, request: Request) -> Response: ...

`rest_client(base).requests(...)`, `.httpx(...)` and `.aiohttp(...)` make them; the modules
for httpx and aiohttp are imported only then, so neither library is needed to import this.
"""

from __future__ import annotations

from .._base import Request, Response, TransportFailure
from .base import AsyncConnection, BaseConnection, Connection

__all__ = [
    "AsyncConnection",
    "BaseConnection",
    "Connection",
    "Request",
    "Response",
    "TransportFailure",
]

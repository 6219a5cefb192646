"""
The transport over aiohttp.

    async with aiohttp.ClientSession() as session:
        app.configure(rest_client("https://api.example.com").aiohttp(session))
        await app.service("todos").find()

`params["connection"]` is passed to `session.request()` as keyword arguments
(`timeout=aiohttp.ClientTimeout(...)`, `ssl=`...). The URL is sent exactly as built: aiohttp
does not re-encode it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import aiohttp
import yarl

from .._base import Request, Response, TransportFailure
from .base import AsyncTransport, keyword_names

__all__ = ["AiohttpTransport"]


class AiohttpTransport(AsyncTransport):
    """
    Sends requests with an `aiohttp.ClientSession`.

    Opened from a remote's settings (`"CONNECTION": "aiohttp"`), inside the event loop that
    uses it, its session keeps no cookies and the remote's `OPTIONS` are its keyword arguments
    (`connector`...).
    """

    name = "aiohttp"
    library = "aiohttp"
    extra = "aiohttp"
    #: Set by the connection itself: cookies are never kept, timeouts are the remote's.
    MANAGED_OPTIONS = frozenset(
        {
            "base_url",
            "conn_timeout",
            "cookie_jar",
            "cookies",
            "headers",
            "loop",
            "raise_for_status",
            "read_timeout",
            "timeout",
        }
    )

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> aiohttp.ClientSession:
        return aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), **client_options)

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return keyword_names(aiohttp.ClientSession.__init__, cls.MANAGED_OPTIONS)

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not isinstance(client, aiohttp.ClientSession):
            raise TypeError(f"Expected an aiohttp.ClientSession, not {type(client).__name__}.")
        super().__init__(client, **kwargs)

    async def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=self.timeout.connect,
            sock_connect=self.timeout.connect,
            sock_read=self.timeout.read,
        )
        options: dict[str, Any] = {
            "headers": dict(request.headers),
            "data": request.body,
            "timeout": timeout,
            # Error statuses are decoded into Feathers errors, whatever the session says.
            "raise_for_status": False,
            **request.options,
        }
        url = yarl.URL(request.url, encoded=True)
        try:
            async with self.client.request(request.method, url, **options) as response:
                content = await response.read()
        except asyncio.TimeoutError as exc:
            raise TransportFailure(request, exc, timed_out=True) from exc
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise TransportFailure(request, exc) from exc
        return Response(
            status=response.status,
            reason=response.reason or "",
            headers=response.headers,
            content=content,
            raw=response,
        )

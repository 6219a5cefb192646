"""
The transports over httpx: blocking with an `httpx.Client`, async with an `httpx.AsyncClient`.

    client = httpx.AsyncClient()
    app.configure(rest_client("https://api.example.com").httpx(client))
    await app.service("todos").find()

`params["connection"]` is passed to `client.request()` as keyword arguments (`timeout=`,
`extensions=`...). The transport's timeout replaces the client's own on every request.
"""

from __future__ import annotations

import http.cookiejar
from collections.abc import Mapping
from typing import Any

import httpx

from .._base import Request, Response, TransportFailure
from ..config import TimeoutConfig
from .base import AsyncTransport, Transport, keyword_names, no_cookie_policy

__all__ = ["AsyncHTTPXTransport", "HTTPXTransport"]

# Errors after which no response arrived; anything else (a bad URL...) is the caller's to fix.
_NO_RESPONSE = (httpx.ConnectError, httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError)


#: Set by the connection itself: cookies are never kept, timeouts are the remote's.
MANAGED_OPTIONS = frozenset({"base_url", "cookies", "headers", "timeout"})


def _options(request: Request, timeout: TimeoutConfig) -> dict[str, Any]:
    return {
        "headers": dict(request.headers),
        "content": request.body,
        "timeout": httpx.Timeout(
            connect=timeout.connect, read=timeout.read, write=timeout.read, pool=timeout.connect
        ),
        **request.options,
    }


def _response(response: httpx.Response) -> Response:
    return Response(
        status=response.status_code,
        reason=response.reason_phrase,
        headers=response.headers,
        content=response.content,
        raw=response,
    )


def _no_cookies() -> http.cookiejar.CookieJar:
    return http.cookiejar.CookieJar(no_cookie_policy())


class HTTPXTransport(Transport):
    """
    Sends requests with an `httpx.Client`.

    Opened from a remote's settings (`"CONNECTION": "httpx"`), its client keeps no cookies and
    the remote's `OPTIONS` are its keyword arguments (`verify`, `limits`...).
    """

    name = "httpx"
    library = "httpx"
    extra = "httpx"

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> httpx.Client:
        return httpx.Client(cookies=_no_cookies(), **client_options)

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return keyword_names(httpx.Client, MANAGED_OPTIONS)

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not isinstance(client, httpx.Client):
            raise TypeError(f"Expected an httpx.Client, not {type(client).__name__}.")
        super().__init__(client, **kwargs)

    def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""
        options = _options(request, self.timeout)
        try:
            response = self.client.request(request.method, request.url, **options)
        except httpx.TimeoutException as exc:
            raise TransportFailure(request, exc, timed_out=True) from exc
        except _NO_RESPONSE as exc:
            raise TransportFailure(request, exc) from exc
        return _response(response)


class AsyncHTTPXTransport(AsyncTransport):
    """Sends requests with an `httpx.AsyncClient` (`"CONNECTION": "httpx-async"`)."""

    name = "httpx-async"
    library = "httpx"
    extra = "httpx"

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> httpx.AsyncClient:
        return httpx.AsyncClient(cookies=_no_cookies(), **client_options)

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return keyword_names(httpx.AsyncClient, MANAGED_OPTIONS)

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not isinstance(client, httpx.AsyncClient):
            raise TypeError(f"Expected an httpx.AsyncClient, not {type(client).__name__}.")
        super().__init__(client, **kwargs)

    async def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""
        options = _options(request, self.timeout)
        try:
            response = await self.client.request(request.method, request.url, **options)
        except httpx.TimeoutException as exc:
            raise TransportFailure(request, exc, timed_out=True) from exc
        except _NO_RESPONSE as exc:
            raise TransportFailure(request, exc) from exc
        return _response(response)

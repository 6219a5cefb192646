"""
The transport over `requests`.

    session = requests.Session()
    app.configure(rest_client("https://api.example.com").requests(session))

A `requests.Session` keeps connections alive between calls; the `requests` module itself
works too, opening a connection for each call. `params["connection"]` is passed to
`session.request()` as keyword arguments (`timeout=`, `verify=`, `cookies=`...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import requests

from .._base import Request, Response, TransportFailure
from .base import Transport, no_cookie_policy

__all__ = ["RequestsTransport"]


class RequestsTransport(Transport):
    """
    Sends requests with a `requests.Session` (or the `requests` module).

    Opened from a remote's settings (`"CONNECTION": "requests"`), its session keeps no cookies
    and the remote's `OPTIONS` set the session's attributes (`verify`, `proxies`...).
    """

    name = "requests"
    library = "requests"
    #: The `requests.Session` attributes a remote may set.
    SESSION_ATTRIBUTES = frozenset({"cert", "max_redirects", "proxies", "trust_env", "verify"})

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not callable(getattr(client, "request", None)):
            raise TypeError(
                f"rest_client().requests() takes a requests.Session or the requests module, "
                f"not {type(client).__name__}."
            )
        super().__init__(client, **kwargs)

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> requests.Session:
        """A `requests.Session` that keeps no cookies, with these attributes set."""
        session = requests.Session()
        session.cookies.set_policy(no_cookie_policy())
        for name, value in client_options.items():
            setattr(session, name, value)
        return session

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return cls.SESSION_ATTRIBUTES

    def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""
        options: dict[str, Any] = {
            "headers": dict(request.headers),
            "data": request.body,
            "timeout": (self.timeout.connect, self.timeout.read),
            **request.options,
        }
        try:
            response = self.client.request(request.method, request.url, **options)
            content = response.content
        except requests.Timeout as exc:
            raise TransportFailure(request, exc, timed_out=True) from exc
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            raise TransportFailure(request, exc) from exc
        return Response(
            status=response.status_code,
            reason=response.reason or "",
            headers=response.headers,
            content=content,
            raw=response,
        )

"""
`rest_client(base)`: where the services live, with one handler per HTTP library (also
imported as `rest`, Feathers' name).

    app.configure(rest_client("https://api.example.com").requests(requests.Session()))
    app.configure(rest_client("https://api.example.com").httpx(httpx.AsyncClient()))
    transport = rest_client("https://api.example.com").aiohttp(session, options={"timeout": 5})
    transport = rest("https://api.example.com").requests(session, {"timeout": 5}, MyService)

Each handler takes the library's client, then `options` (defaults for every request:
`headers`, `timeout`, `retries`) and `service_class`, by position as Feathers' handlers take
`(connection, options, Service)` or by keyword, and returns a transport. The module of a
library is imported only when its handler is called, with an install hint when it is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .services import BaseRestService
from .transports import AsyncTransport, BaseTransport, Transport, load

__all__ = ["RestClient", "rest", "rest_client"]

TransportOptions = Mapping[str, Any]


class RestClient:
    """
    The REST client of the services mounted under `base`: Feathers' `rest(base)`.

    Call one of its handlers with your HTTP library's client to get a transport (the app's
    connection).
    """

    def __init__(self, base: str = "") -> None:
        if not isinstance(base, str):
            raise TypeError(f"base must be a URL string, not {type(base).__name__}.")
        self.base = base

    def requests(
        self,
        session: Any,
        options: TransportOptions | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> Transport:
        """Connect through a `requests.Session` (or the `requests` module): sync services."""
        cls = _load("requests")
        return self.connect(cls, session, options=options, service_class=service_class)  # type: ignore[return-value]

    def httpx(
        self,
        client: Any,
        options: TransportOptions | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> Transport | AsyncTransport:
        """Connect through an `httpx.Client` (sync services) or `httpx.AsyncClient` (async)."""
        cls = _load("httpx-async", "httpx")
        import httpx

        if isinstance(client, httpx.Client):
            cls = _load("httpx")
        elif client is not None and not isinstance(client, httpx.AsyncClient):
            raise TypeError(
                f"rest_client().httpx() takes an httpx.Client or httpx.AsyncClient, "
                f"not {type(client).__name__}."
            )
        return self.connect(cls, client, options=options, service_class=service_class)  # type: ignore[return-value]

    def aiohttp(
        self,
        session: Any,
        options: TransportOptions | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> AsyncTransport:
        """Connect through an `aiohttp.ClientSession`: async services."""
        cls = _load("aiohttp")
        return self.connect(cls, session, options=options, service_class=service_class)  # type: ignore[return-value]

    def connect(
        self,
        transport_class: type[BaseTransport],
        client: Any,
        options: TransportOptions | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> BaseTransport:
        """Connect through `client` with a transport class of your own (any HTTP library)."""
        return transport_class(client, base=self.base, options=options, service_class=service_class)

    def __repr__(self) -> str:
        return f"<RestClient base={self.base!r}>"


def rest_client(base: str = "") -> RestClient:
    """Return the REST client of the services mounted under `base` (Feathers' `rest()`)."""
    return RestClient(base)


#: Feathers' name of `rest_client`: `rest(base)`.
rest = rest_client


def _load(name: str, handler: str | None = None) -> type[BaseTransport]:
    return load(name, needed_by=f"rest_client().{handler or name}()")

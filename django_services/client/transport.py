"""
`rest_client(base)`: where the services live, with one handler per HTTP library.

    app.configure(rest_client("https://api.example.com").requests(requests.Session()))
    app.configure(rest_client("https://api.example.com").httpx(httpx.AsyncClient()))
    connection = rest_client("https://api.example.com").aiohttp(session, {"timeout": 5})

Each handler takes the library's client, `options` (defaults for every request: `headers`,
`timeout`, `retries`) and an optional `service_class`, and returns a connection. The module of
a library is imported only when its handler is called, with an install hint when it is missing.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .connections.base import AsyncConnection, BaseConnection, Connection
from .services import BaseRestService

__all__ = ["Transport", "rest", "rest_client"]

ConnectionOptions = Mapping[str, Any]


class Transport:
    """
    The REST transport for services mounted under `base`.

    Call one of its handlers with your HTTP library's client to get a connection.
    """

    def __init__(self, base: str = "") -> None:
        if not isinstance(base, str):
            raise TypeError(f"base must be a URL string, not {type(base).__name__}.")
        self.base = base

    def requests(
        self,
        session: Any,
        options: ConnectionOptions | type[BaseRestService] | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> Connection:
        """Connect through a `requests.Session` (or the `requests` module): sync services."""
        module = _load("requests", "requests", "")
        return self._connect(module.RequestsConnection, session, options, service_class)

    def httpx(
        self,
        client: Any,
        options: ConnectionOptions | type[BaseRestService] | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> Connection | AsyncConnection:
        """Connect through an `httpx.Client` (sync services) or `httpx.AsyncClient` (async)."""
        module = _load("httpx", "httpx", "httpx")
        import httpx

        cls = module.AsyncHTTPXConnection
        if isinstance(client, httpx.Client):
            cls = module.HTTPXConnection
        elif client is not None and not isinstance(client, httpx.AsyncClient):
            raise TypeError(
                f"rest_client().httpx() takes an httpx.Client or httpx.AsyncClient, "
                f"not {type(client).__name__}."
            )
        return self._connect(cls, client, options, service_class)

    def aiohttp(
        self,
        session: Any,
        options: ConnectionOptions | type[BaseRestService] | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> AsyncConnection:
        """Connect through an `aiohttp.ClientSession`: async services."""
        module = _load("aiohttp", "aiohttp", "aiohttp")
        return self._connect(module.AiohttpConnection, session, options, service_class)

    def _connect(
        self,
        cls: type[Any],
        client: Any,
        options: ConnectionOptions | type[BaseRestService] | None,
        service_class: type[BaseRestService] | None,
    ) -> Any:
        # As in Feathers, a class given in place of the options is the service class.
        if isinstance(options, type):
            options, service_class = None, options
        connection: BaseConnection = cls(
            client, base=self.base, options=options, service_class=service_class
        )
        return connection

    def __repr__(self) -> str:
        return f"<Transport base={self.base!r}>"


def rest_client(base: str = "") -> Transport:
    """Return the REST transport for services mounted under `base` (Feathers' `rest()`)."""
    return Transport(base)


#: Feathers' name for `rest_client`.
rest = rest_client


def _load(name: str, library: str, extra: str) -> Any:
    try:
        return importlib.import_module(f"{__package__}.connections.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != library:
            raise
        install = f"django-feathers[{extra}]" if extra else "django-feathers"
        raise ImportError(
            f"rest_client().{name}() needs the {library} package: pip install '{install}'"
        ) from exc

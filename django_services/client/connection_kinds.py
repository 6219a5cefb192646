"""
How a remote of `DJANGO_SERVICES["REMOTES"]` opens its connection: `CONNECTION`.

    "CONNECTION": "httpx-async"                          # a name of KINDS
    "CONNECTION": "django_services.testing.IN_PROCESS"   # or the dotted path of a kind

A kind makes the HTTP library's client from the remote's `OPTIONS` (every key but `headers`
is passed to it) and wraps it in a connection. The clients never keep cookies: a connection
is shared by every caller of a remote, and a cookie one caller's call received must never be
sent with another's.
"""

from __future__ import annotations

import abc
import http.cookiejar
import importlib.util
import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .transport import rest_client

if TYPE_CHECKING:
    from .connections.base import BaseConnection

__all__ = [
    "KINDS",
    "AiohttpKind",
    "AsyncHTTPXKind",
    "ConnectionKind",
    "HTTPXKind",
    "RequestsKind",
]


class ConnectionKind(abc.ABC):
    """
    Opens (and closes) the connections of remotes that name it in `CONNECTION`.

    Subclass it for a library or a transport of your own, and name an instance (or the class)
    by its dotted path.
    """

    #: The name shown in messages.
    name: ClassVar[str] = ""
    #: Whether its services have coroutine methods.
    is_async: ClassVar[bool] = False
    #: The module it needs, and the extra that installs it (`django-feathers[<extra>]`).
    library: ClassVar[str | None] = None
    extra: ClassVar[str] = ""

    @abc.abstractmethod
    def open(
        self, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseConnection:
        """
        Return a new connection to the services under `base_url`.

        `options` are the connection's options (`headers`, `timeout`, `retries`) and
        `client_options` the other keys of the remote's `OPTIONS`.
        """

    def option_names(self) -> frozenset[str] | None:
        """The `OPTIONS` keys (besides `headers`) this kind accepts; `None` accepts any."""
        return None

    def missing_library(self) -> str | None:
        """Why the kind can not be used here (its library is not installed), or `None`."""
        if self.library is None or importlib.util.find_spec(self.library) is not None:
            return None
        install = f"django-feathers[{self.extra}]" if self.extra else "django-feathers"
        return f"needs the {self.library} package: pip install '{install}'"

    def close(self, connection: BaseConnection) -> None:
        """Close a sync connection's client (its pooled sockets)."""
        close = getattr(connection.client, "close", None)
        if callable(close):
            close()

    async def aclose(self, connection: BaseConnection) -> None:
        """Close an async connection's client, in the event loop it belongs to."""
        client = connection.client
        close = getattr(client, "aclose", None) or getattr(client, "close", None)
        if callable(close):
            result = close()
            if inspect.isawaitable(result):
                await result

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _no_cookie_policy() -> http.cookiejar.CookiePolicy:
    # A policy that accepts no domain: no cookie is stored, none is sent.
    return http.cookiejar.DefaultCookiePolicy(allowed_domains=[])


def _no_cookies() -> http.cookiejar.CookieJar:
    return http.cookiejar.CookieJar(_no_cookie_policy())


def _parameters(callable_: Any, managed: frozenset[str]) -> frozenset[str]:
    names = set(inspect.signature(callable_).parameters) - {"self"}
    return frozenset(names - managed)


class RequestsKind(ConnectionKind):
    """A `requests.Session`: `OPTIONS` keys set its attributes (`verify`, `proxies`...)."""

    name = "requests"
    library = "requests"
    #: The `requests.Session` attributes a remote may set.
    SESSION_ATTRIBUTES = frozenset({"cert", "max_redirects", "proxies", "trust_env", "verify"})

    def open(
        self, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseConnection:
        import requests

        session = requests.Session()
        session.cookies.set_policy(_no_cookie_policy())
        for name, value in client_options.items():
            setattr(session, name, value)
        return rest_client(base_url).requests(session, options)

    def option_names(self) -> frozenset[str]:
        return self.SESSION_ATTRIBUTES


class HTTPXKind(ConnectionKind):
    """An `httpx.Client`: `OPTIONS` keys are its keyword arguments (`verify`, `limits`...)."""

    name = "httpx"
    library = "httpx"
    extra = "httpx"
    #: Set by the connection itself: cookies are never kept, timeouts are the remote's.
    MANAGED = frozenset({"base_url", "cookies", "headers", "timeout"})

    def client_class(self) -> Any:
        import httpx

        return httpx.Client

    def open(
        self, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseConnection:
        client = self.client_class()(cookies=_no_cookies(), **client_options)
        return rest_client(base_url).httpx(client, options)

    def option_names(self) -> frozenset[str]:
        return _parameters(self.client_class(), self.MANAGED)


class AsyncHTTPXKind(HTTPXKind):
    """An `httpx.AsyncClient`: services have coroutine methods."""

    name = "httpx-async"
    is_async = True

    def client_class(self) -> Any:
        import httpx

        return httpx.AsyncClient


class AiohttpKind(ConnectionKind):
    """An `aiohttp.ClientSession`: `OPTIONS` keys are its keyword arguments (`connector`...)."""

    name = "aiohttp"
    is_async = True
    library = "aiohttp"
    extra = "aiohttp"
    MANAGED = frozenset(
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

    def open(
        self, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseConnection:
        import aiohttp

        session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), **client_options)
        return rest_client(base_url).aiohttp(session, options)

    def option_names(self) -> frozenset[str]:
        import aiohttp

        return _parameters(aiohttp.ClientSession.__init__, self.MANAGED)


#: The kinds a remote names in `CONNECTION`.
KINDS: Mapping[str, ConnectionKind] = {
    kind.name: kind for kind in (RequestsKind(), HTTPXKind(), AsyncHTTPXKind(), AiohttpKind())
}

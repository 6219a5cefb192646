"""
The one interface of the client's I/O layer: a transport sends requests over an HTTP library.

    class MyTransport(Transport):
        name = "mylib"                      # what a remote's CONNECTION may call it
        library = "mylib"                   # the module it needs

        @classmethod
        def create_client(cls, client_options):
            return mylib.Client(**client_options)

        def send(self, request: Request) -> Response:
            ...   # send it, return a Response, or raise TransportFailure

A transport holds where the services live (`base`), the HTTP library's client, defaults for
every request (`options`: headers, timeout, the retry rules) and the service class. It sends one
request (`send`) and closes its client (`close`, `aclose`); nothing more: the retries, the
login and the bridges are flows (`client/_flow.py`) that take its `send` as a step.
`app.configure(transport)` makes it the app's connection; `transport.service("todos")` gives a
service without an app; `open()` makes one from a remote's settings, for
`DJANGO_SERVICES["REMOTES"]`.
"""

from __future__ import annotations

import abc
import http.cookiejar
import importlib.util
import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...clock import Clock
from ...contract import RETRY_AFTER_HEADER
from ...errors import FeathersError
from .._base import (
    Request,
    Response,
    TransportFailure,
    decode,
    failure_error,
)
from ..cache import HTTPCache
from ..config import DEFAULT_TIMEOUT, Retries, TimeoutConfig
from ..services import AsyncRestService, BaseRestService, RestService

if TYPE_CHECKING:
    from .._types import ConfiguredApp
    from ..breaker import Breaker

__all__ = [
    "AsyncTransport",
    "BaseTransport",
    "Transport",
    "keyword_names",
    "missing_library",
    "no_cookie_policy",
]

OPTIONS = ("cache", "headers", "retries", "timeout")


def missing_library(library: str | None, extra: str = "") -> str | None:
    """Why a connection needing the module `library` can not be used here, or `None`."""
    if not library or importlib.util.find_spec(library) is not None:
        return None
    install = f"django-feathers[{extra}]" if extra else "django-feathers"
    return f"needs the {library} package: pip install '{install}'"


def no_cookie_policy() -> http.cookiejar.CookiePolicy:
    """
    A cookie policy that accepts no domain: no cookie is stored, none is sent.

    The clients a connection opens from settings never keep cookies: a connection is shared by
    every caller of a remote, and a cookie one caller's call received must never be sent with
    another's.
    """
    return http.cookiejar.DefaultCookiePolicy(allowed_domains=[])


def keyword_names(callable_: Any, managed: frozenset[str]) -> frozenset[str]:
    """The parameters of `callable_` a remote's `OPTIONS` may set: all but the `managed` ones."""
    names = set(inspect.signature(callable_).parameters) - {"self"}
    return frozenset(names - managed)


class BaseTransport(abc.ABC):
    """
    What every transport offers: `Transport` (blocking) and `AsyncTransport` (coroutines).

    **Parameters:**

    * **client** - the HTTP library's client: a `requests.Session` (or the `requests` module),
      an `httpx.Client` or `httpx.AsyncClient`, an `aiohttp.ClientSession`.
    * **base** - the URL the services are mounted under (`""` for a client with a base URL).
    * **options** - defaults for every request: `headers` (a dict), `timeout` (seconds or a
      `TimeoutConfig`, `DEFAULT_TIMEOUT` when not given) and `retries` (a count or `Retries`,
      off when not given), and `cache` (an `HTTPCache`: reads revalidated with their ETag, see
      `client.cache`).
    * **service_class** - the class of the services this transport makes.
    """

    is_async: ClassVar[bool] = False
    default_service_class: ClassVar[type[BaseRestService]] = BaseRestService
    #: The name a remote's `CONNECTION` gives it, shown in messages.
    name: ClassVar[str] = ""
    #: The module of the HTTP library, and the extra that installs it (`django-feathers[x]`).
    library: ClassVar[str] = ""
    extra: ClassVar[str] = ""
    #: Whether each call carries HTTP headers of its own, where a remote's credential bridge
    #: puts its credentials (a socket's go with its handshake only).
    call_headers: ClassVar[bool] = True

    def __init__(
        self,
        client: Any,
        *,
        base: str = "",
        options: Mapping[str, Any] | None = None,
        service_class: type[BaseRestService] | None = None,
    ) -> None:
        if client is None:
            raise TypeError(f"`{self.library}` has to be provided to rest_client().")
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"Unknown connection option {unknown[0]!r}; the options are {', '.join(OPTIONS)}."
            )
        headers = options.get("headers") or {}
        if not isinstance(headers, Mapping):
            raise TypeError(f"options['headers'] must be a dict, not {type(headers).__name__}.")
        service_class = service_class or self.default_service_class
        if not (
            isinstance(service_class, type)
            and issubclass(service_class, self.default_service_class)
        ):
            raise TypeError(
                f"service_class must be a subclass of {self.default_service_class.__name__} "
                f"for {'an async' if self.is_async else 'a sync'} connection, "
                f"not {service_class!r}."
            )
        self.client = client
        self.base = base.rstrip("/")
        self.options = options
        self.headers: Mapping[str, Any] = dict(headers)
        self.timeout = TimeoutConfig.coerce(options.get("timeout", DEFAULT_TIMEOUT))
        self.retries = Retries.coerce(options.get("retries"))
        self.service_class = service_class
        #: Where the flows of its calls read the time and wait; `None` for the package's clock.
        self.clock: Clock | None = None
        #: The circuit breaker its calls go through (a remote's); `None`: none.
        self.breaker: Breaker | None = None
        #: The `HTTPCache` its reads go through, if any.
        self.cache: HTTPCache | None = options.get("cache")
        if self.cache is not None:
            self._use_cache(self.cache)

    def _use_cache(self, cache: Any) -> None:
        if not isinstance(cache, HTTPCache):
            raise TypeError(f"options['cache'] must be an HTTPCache, not {type(cache).__name__}.")
        if not self.call_headers:
            raise TypeError(
                "options['cache'] is for REST connections: a socket's answers carry no ETag."
            )
        # The instance's own `send`, which the flows call: the cache sits in front of it.
        self.send = cache.sending(self.send, is_async=self.is_async)  # type: ignore[method-assign]

    @classmethod
    def open(
        cls, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseTransport:
        """
        Return a new connection to the services under `base_url`, with a client of its own.

        `options` are the connection's options (`headers`, `timeout`, `retries`) and
        `client_options` the other keys of a remote's `OPTIONS`, given to `create_client()`.
        """
        return cls(cls.create_client(client_options), base=base_url, options=options)

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> Any:
        """Make the HTTP library's client of a remote from its `OPTIONS` (but `headers`)."""
        raise TypeError(
            f"{cls.__name__} can not open connections from settings: "
            "define its create_client() classmethod."
        )

    @classmethod
    def opens_from_settings(cls) -> bool:
        """Whether a remote's `CONNECTION` may name this class: it makes its own client."""
        own = cls.__mro__[: cls.__mro__.index(BaseTransport)]
        return any("open" in vars(klass) or "create_client" in vars(klass) for klass in own)

    @classmethod
    def option_names(cls) -> frozenset[str] | None:
        """The `OPTIONS` keys (besides `headers`) `create_client()` takes; `None` takes any."""
        return None

    @classmethod
    def missing_library(cls) -> str | None:
        """Why the connection can not be used here (its library is not installed), or `None`."""
        return missing_library(cls.library, cls.extra)

    def service(self, name: str) -> Any:
        """Return the service at `name` on this transport, not registered with any app."""
        return self.service_class(name, connection=self)

    @abc.abstractmethod
    def send(self, message: Any) -> Any:
        """
        Send `message` once and return the answer (a coroutine of it when async): a `Response`
        to a `Request` over HTTP; raise `TransportFailure` when no answer arrives.
        """

    def decode(self, message: Any, answer: Any) -> Any:
        """The result an answer carries, or raise the Feathers error it describes."""
        return decode(answer, message)

    def no_answer(self, failure: TransportFailure) -> FeathersError:
        """The Feathers error of a request that got no response: `Timeout` or `Unavailable`."""
        return failure_error(failure)

    def retry_hint(self, answer: Any, error: FeathersError) -> tuple[int | None, str | None] | None:
        """The status and `Retry-After` header the retry rules read from an error response."""
        if not isinstance(answer, Response):
            return (error.code if isinstance(error.code, int) else None, None)
        return answer.status, answer.headers.get(RETRY_AFTER_HEADER)

    def close(self) -> None:
        """Close the client (its pooled sockets), from any thread; for sync clients."""
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

    async def aclose(self) -> None:
        """Close the client in the event loop it belongs to; for async clients."""
        close = getattr(self.client, "aclose", None) or getattr(self.client, "close", None)
        if callable(close):
            result = close()
            if inspect.isawaitable(result):
                await result

    def __call__(self, app: ConfiguredApp) -> None:
        """Make this transport the connection of `app` (`app.configure(transport)`)."""
        if app.connection is not None:
            raise RuntimeError("Only one default client provider can be configured.")
        app.connection = self

    def __repr__(self) -> str:
        return f"<{type(self).__name__} base={self.base!r}>"


class Transport(BaseTransport):
    """A transport over a blocking HTTP library: service methods return their results."""

    default_service_class = RestService

    @abc.abstractmethod
    def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""


class AsyncTransport(BaseTransport):
    """A transport over an asyncio HTTP library: service methods are coroutines."""

    is_async = True
    default_service_class = AsyncRestService

    @abc.abstractmethod
    async def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""

"""
What every connection shares; each HTTP library adds only `send()`.

    class MyConnection(Connection):
        library = "mylib"

        def send(self, request: Request) -> Response:
            ...   # send it, return a Response, or raise TransportFailure

A connection holds where the services live (`base`), the HTTP library's client, defaults for
every request (`options`) and the service class. `app.configure(connection)` makes it the app's
default provider; `connection.service("todos")` gives a service without an app.
"""

from __future__ import annotations

import abc
import asyncio
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .._base import Request, Response, TransportFailure, exchange
from ..config import DEFAULT_TIMEOUT, Retries, TimeoutConfig
from ..services import AsyncRestService, BaseRestService, RestService

if TYPE_CHECKING:
    from ..app import App

__all__ = ["AsyncConnection", "BaseConnection", "Connection"]

OPTIONS = ("headers", "retries", "timeout")


class BaseConnection:
    """
    The configuration shared by sync and async connections.

    **Parameters:**

    * **client** - the HTTP library's client: a `requests.Session` (or the `requests` module),
      an `httpx.Client` or `httpx.AsyncClient`, an `aiohttp.ClientSession`.
    * **base** - the URL the services are mounted under (`""` for a client with a base URL).
    * **options** - defaults for every request: `headers` (a dict), `timeout` (seconds or a
      `TimeoutConfig`, `DEFAULT_TIMEOUT` when not given) and `retries` (a count or `Retries`,
      off when not given).
    * **service_class** - the class of the services this connection makes.
    """

    is_async: ClassVar[bool] = False
    default_service_class: ClassVar[type[BaseRestService]] = BaseRestService
    #: The library's name, as the `rest_client()` handler that makes this connection.
    library: ClassVar[str] = ""

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

    def service(self, name: str) -> Any:
        """Return the service at `name` on this connection, not registered with any app."""
        return self.service_class(name, connection=self)

    def call(self, request: Request) -> Any:
        """
        Send `request` (again, when the retry rules say so) and return the decoded result: the
        result on a `Connection`, an awaitable of it on an `AsyncConnection`.
        """
        raise NotImplementedError(f"{type(self).__name__} does not define call().")

    def __call__(self, app: App) -> None:
        """Make this connection the default provider of `app` (`app.configure(connection)`)."""
        if app.rest is not None:
            raise RuntimeError("Only one default client provider can be configured.")
        app.rest = self

    def __repr__(self) -> str:
        return f"<{type(self).__name__} base={self.base!r}>"


class Connection(BaseConnection, abc.ABC):
    """A connection over a blocking HTTP library: service methods return their results."""

    default_service_class = RestService

    @abc.abstractmethod
    def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""

    def call(self, request: Request) -> Any:
        """Send `request` (again, when the retry rules say so) and return the decoded result."""
        flow = exchange(request, self.retries)
        step = next(flow)
        while True:
            outcome: Response | TransportFailure | None
            if isinstance(step, Request):
                try:
                    outcome = self.send(step)
                except TransportFailure as failure:
                    outcome = failure
            else:
                time.sleep(step)
                outcome = None
            try:
                step = flow.send(outcome)
            except StopIteration as done:
                return done.value


class AsyncConnection(BaseConnection, abc.ABC):
    """A connection over an asyncio HTTP library: service methods are coroutines."""

    is_async = True
    default_service_class = AsyncRestService

    @abc.abstractmethod
    async def send(self, request: Request) -> Response:
        """Send `request` once; raise `TransportFailure` when no response arrives."""

    async def call(self, request: Request) -> Any:
        """Send `request` (again, when the retry rules say so) and return the decoded result."""
        flow = exchange(request, self.retries)
        step = next(flow)
        while True:
            outcome: Response | TransportFailure | None
            if isinstance(step, Request):
                try:
                    outcome = await self.send(step)
                except TransportFailure as failure:
                    outcome = failure
            else:
                await asyncio.sleep(step)
                outcome = None
            try:
                step = flow.send(outcome)
            except StopIteration as done:
                return done.value

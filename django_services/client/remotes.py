"""
Remote services configured in settings: `remotes["billing"]`, as Django's `caches["default"]`.

    DJANGO_SERVICES = {"REMOTES": {"billing": {
        "BASE_URL": "https://billing.example.com/api",
        "AUTH": {"STRATEGY": "forward-bearer"},
        "SERVICES": {"invoices": {"methods": ["find", "get", "create", "send"]}},
    }}}

    from django_services.client.remotes import remotes

    remotes["billing"].service("invoices").find(query={"paid": False})
    remotes["billing"].for_request(request).service("invoices").send({"id": 7})
    request.remotes["billing"].service("invoices").get(7)   # with RemotesMiddleware

A remote is made on first use and keeps one pooled connection per thread, or per event loop
for async connections (`httpx-async`, `aiohttp`, whose services have coroutine methods),
closed when the thread ends or the loop shuts down its async generators (`asyncio.run()` does);
see `_pools.py`.
`for_request(request)` is a cheap view of the remote with the caller's credentials, for the
strategies that forward them; the other remotes never send them. `remotes.close_all()` closes
every connection (an async one in its event loop), `await remotes.aclose_all()` does so from
inside an event loop, closing that loop's connections before returning.
"""

from __future__ import annotations

import threading
import types
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.connection import BaseConnectionHandler, ConnectionDoesNotExist

from ..clock import Clock
from ..conf import SETTINGS_NAME, services_settings
from . import telemetry
from ._pools import LoopPool, Pool, ThreadPool
from .breaker import Breaker
from .bridges import Bridge
from .remote_app import RemoteApp
from .remote_settings import RemoteConfig, read_remote

if TYPE_CHECKING:
    from .transports.base import BaseTransport

__all__ = [
    "BoundRemote",
    "Remote",
    "RemoteApp",
    "RemoteDoesNotExist",
    "RemoteHandler",
    "RequestRemotes",
    "remotes",
]


class RemoteDoesNotExist(ConnectionDoesNotExist):
    """No remote of `DJANGO_SERVICES["REMOTES"]` has this alias."""


class Remote:
    """
    One remote of `DJANGO_SERVICES["REMOTES"]`: `remotes["billing"]`.

    `service(path)` returns a service whose methods call the remote (coroutines with an async
    connection). Safe to share between threads: each thread, and each event loop, gets a
    pooled connection of its own, closed when the thread ends or the loop shuts down. Async
    connections are for code running in a long-lived event loop (async views under ASGI):
    `async_to_sync()` starts a new loop, and so a new connection, for each call; sync code is
    better served by `requests` or `httpx`.
    """

    def __init__(self, config: RemoteConfig) -> None:
        self.config = config
        #: The circuit breaker of the remote's calls, shared by its connections; `None` when
        #: its `BREAKER` setting is `False`.
        self.breaker = Breaker(config.alias, config.breaker) if config.breaker else None
        self._clock: Clock | None = None
        self._pool: Pool[RemoteApp]
        if config.transport_class.is_async:
            self._pool = LoopPool(
                self._open,
                misuse=(
                    f"The remote {self.alias!r} has an async connection "
                    f"({config.transport_class.name}): "
                    "use its services inside the event loop that awaits them (in an async "
                    "view, or a coroutine)."
                ),
            )
        else:
            self._pool = ThreadPool(self._open)

    @property
    def alias(self) -> str:
        return self.config.alias

    @property
    def clock(self) -> Clock | None:
        """The clock of the calls (token margins, retries, breaker); `None`: the package's."""
        return self._clock

    @clock.setter
    def clock(self, clock: Clock | None) -> None:
        self._clock = clock
        if self.breaker is not None:
            self.breaker.clock = clock

    @property
    def bridge(self) -> Bridge:
        """The bridge of the remote's `AUTH` strategy."""
        return self.config.bridge

    @property
    def is_async(self) -> bool:
        """Whether the remote's services have coroutine methods."""
        return self.config.transport_class.is_async

    @property
    def app(self) -> RemoteApp:
        """The app of the current thread (sync) or event loop (async), made on first use."""
        return self._pool.get()

    @property
    def connection(self) -> BaseTransport:
        """The connection of the current thread or event loop."""
        connection = self.app.connection
        assert connection is not None
        return connection

    def service(self, path: str) -> Any:
        """The service at `path` of the remote, sending the remote's own credentials."""
        return self.app.service(path)

    def for_request(self, request: Any) -> Remote | BoundRemote:
        """
        The remote bound to the credentials of an incoming Django (or DRF) request.

        Only the forwarding strategies send the request's credentials; the others only its trace
        context and `X-Request-ID` (see `telemetry`), and are returned as they are without.
        """
        trace = telemetry.incoming_trace(request) if self.config.propagate else {}
        if not self.bridge.forwards:
            return BoundRemote(self, None, trace) if trace else self
        return BoundRemote(self, self.bridge.credentials_of(request), trace)

    def close(self) -> None:
        """
        Close the connections of every thread and event loop; closing again does nothing.

        An async connection is closed in its event loop: at once when the loop is idle,
        scheduled when it runs; one whose loop is already closed is only forgotten.
        """
        self._pool.close()

    async def aclose(self) -> None:
        """Close the connection of the running event loop now, and the others (`close()`)."""
        await self._pool.aclose()

    def _open(self) -> RemoteApp:
        config = self.config
        connection = config.transport_class.open(
            config.base_url, config.connection_options, config.client_options
        )
        connection.breaker = self.breaker
        return RemoteApp(self, connection)

    def __repr__(self) -> str:
        return f"<Remote {self.alias!r} base_url={self.config.base_url!r}>"


class BoundRemote:
    """
    A remote with the credentials of one incoming request: `remote.for_request(request)`.

    Cheap to make; it shares the remote's pooled connections and never changes them.
    """

    def __init__(
        self, remote: Remote, credentials: Any, trace: Mapping[str, str] | None = None
    ) -> None:
        self.remote = remote
        self.credentials = credentials
        self.trace: Mapping[str, str] = trace or {}  # the request's, sent on with each call
        self._apps: dict[int, RemoteApp] = {}

    @property
    def alias(self) -> str:
        return self.remote.alias

    @property
    def is_async(self) -> bool:
        return self.remote.is_async

    @property
    def app(self) -> RemoteApp:
        """The app of the current thread or event loop, with this request's credentials."""
        connection = self.remote.connection
        app = self._apps.get(id(connection))
        if app is None or app.connection is not connection:
            app = self._apps[id(connection)] = RemoteApp(
                self.remote, connection, self.credentials, self.trace
            )
        return app

    def service(self, path: str) -> Any:
        """The service at `path`, sending the request's credentials."""
        return self.app.service(path)

    def for_request(self, request: Any) -> Remote | BoundRemote:
        """The remote bound to another request's credentials."""
        return self.remote.for_request(request)

    def __repr__(self) -> str:
        bound = "with credentials" if self.credentials is not None else "without credentials"
        return f"<BoundRemote {self.alias!r} {bound}>"


class RemoteHandler(BaseConnectionHandler):
    """
    The remotes of `DJANGO_SERVICES["REMOTES"]` (or of `settings`), by alias.

    Unlike the handlers of caches and databases, each remote is one object for the whole
    process: it keeps a connection per thread and per event loop itself.
    """

    exception_class = RemoteDoesNotExist

    def __init__(self, settings: Mapping[str, Any] | None = None) -> None:
        super().__init__(settings)
        self._explicit_settings = settings
        self._connections = types.SimpleNamespace()
        self._lock = threading.Lock()

    def configure_settings(self, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        if settings is None:
            settings = services_settings.REMOTES
        if not isinstance(settings, Mapping):
            raise ImproperlyConfigured(
                f"{SETTINGS_NAME}['REMOTES'] must be a dict, not {type(settings).__name__}."
            )
        return dict(settings)

    def create_connection(self, alias: str) -> Remote:
        return Remote(read_remote(alias, self.settings[alias]))

    def __getitem__(self, alias: str) -> Remote:
        remote = getattr(self._connections, alias, None)
        if remote is not None:
            return remote
        with self._lock:
            remote = getattr(self._connections, alias, None)
            if remote is None:
                if alias not in self.settings:
                    known = ", ".join(map(repr, self.settings)) or "none"
                    raise self.exception_class(
                        f"The remote {alias!r} does not exist. "
                        f"{SETTINGS_NAME}['REMOTES'] configures: {known}."
                    )
                remote = self.create_connection(alias)
                setattr(self._connections, alias, remote)
        return remote

    def __iter__(self) -> Iterator[str]:
        return iter(self.settings)

    def all(self, initialized_only: bool = False) -> list[Remote]:
        """Every remote; with `initialized_only`, those already used (settings not read)."""
        if initialized_only:
            return list(vars(self._connections).values())
        return [self[alias] for alias in self]

    def close_all(self) -> None:
        """Close the connections of every remote (`Remote.close()`)."""
        for remote in self.all(initialized_only=True):
            remote.close()

    async def aclose_all(self) -> None:
        """Close the running event loop's connections now, and the others (`Remote.aclose()`)."""
        for remote in self.all(initialized_only=True):
            await remote.aclose()

    def reset_breakers(self) -> None:
        """Close the breaker of every remote used (this process's): for tests of failures."""
        for remote in self.all(initialized_only=True):
            if remote.breaker is not None:
                remote.breaker.reset()

    def reset(self) -> None:
        """Close every connection and forget the remotes and the settings."""
        self.close_all()
        with self._lock:
            self._connections = types.SimpleNamespace()
            self.__dict__.pop("settings", None)
            self._settings = self._explicit_settings


#: The remotes of the project.
remotes = RemoteHandler()


class RequestRemotes:
    """
    `request.remotes`: each remote bound to the credentials of one request.

        request.remotes["billing"].service("invoices").find()

    `RemotesMiddleware` sets it on every request; `RequestRemotes(request)` makes one anywhere.
    """

    def __init__(self, request: Any, handler: RemoteHandler | None = None) -> None:
        self.request = request
        self.handler = remotes if handler is None else handler
        self._bound: dict[str, Remote | BoundRemote] = {}

    def __getitem__(self, alias: str) -> Remote | BoundRemote:
        bound = self._bound.get(alias)
        if bound is None:
            bound = self._bound[alias] = self.handler[alias].for_request(self.request)
        return bound

    def __contains__(self, alias: object) -> bool:
        return alias in self.handler.settings

    def __iter__(self) -> Iterator[str]:
        return iter(self.handler)

    def __repr__(self) -> str:
        return f"<RequestRemotes {list(self.handler)!r}>"


def _reset_remotes(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        remotes.reset()


setting_changed.connect(_reset_remotes)

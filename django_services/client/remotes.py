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
closed when the thread ends or the loop shuts down its async generators (`asyncio.run()` does).
`for_request(request)` is a cheap view of the remote with the caller's credentials, for the
strategies that forward them; the other remotes never send them. `remotes.close_all()` closes
every connection (an async one in its event loop), `await remotes.aclose_all()` does so from
inside an event loop, closing that loop's connections before returning.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys
import threading
import types
import weakref
from collections.abc import AsyncGenerator, Coroutine, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.connection import BaseConnectionHandler, ConnectionDoesNotExist

from ..conf import SETTINGS_NAME, services_settings
from .app import App
from .bridges import Bridge, arun_flow, run_flow
from .remote_settings import RemoteConfig, read_remote

if TYPE_CHECKING:
    from ._base import Request
    from .connection_kinds import ConnectionKind
    from .connections.base import BaseConnection
    from .services import BaseRestService

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


class RemoteApp(App):
    """
    The client app of a remote in one thread or event loop, or of a request bound to it.

    Its services are those of the remote's `SERVICES` (class and methods), made on first use;
    its bridge adds the credentials to each call and wraps it (a login, a retry after a 401).
    """

    def __init__(self, remote: Remote, connection: BaseConnection, credentials: Any = None) -> None:
        super().__init__()
        self.remote = remote
        self.credentials = credentials
        self.configure(connection)

    @property
    def bridge(self) -> Bridge:
        return self.remote.bridge

    def default_service(self, path: str) -> Any:
        """A new service for `path`, of the class and with the methods `SERVICES` declares."""
        assert self.rest is not None
        options = self.remote.config.services.get(path)
        cls = (options and options.service_class) or self.rest.service_class
        methods = options.methods if options else None
        return cls(path, connection=self.rest, methods=methods)

    def get_request_headers(self, path: str, method: str) -> dict[str, str]:
        return self.bridge.request_headers(self.credentials, method)

    def send(self, service: BaseRestService, request: Request) -> Any:
        flow = self.bridge.flow(request, service.connection)
        if service.connection.is_async:
            return arun_flow(flow, service.connection)
        return run_flow(flow, service.connection)

    def __repr__(self) -> str:
        return f"<RemoteApp {self.remote.alias!r} services={sorted(self.services)!r}>"


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
        self._per_loop = config.kind.is_async
        self._lock = threading.Lock()
        # Sync: the app of each thread in a thread-local, with a `_ThreadHold` whose finalizer
        # closes the connection when the thread's locals are torn down, as the thread ends.
        # `close()` calls the finalizers of the threads still running, kept here by token.
        self._local = threading.local()
        self._threads: dict[int, weakref.finalize] = {}
        self._tokens = itertools.count()
        # Async: the app of each event loop, and the async generator that closes its
        # connection when the loop shuts down its async generators (`asyncio.run()` does).
        self._loops: dict[asyncio.AbstractEventLoop, RemoteApp] = {}
        self._closers: dict[asyncio.AbstractEventLoop, AsyncGenerator[None, None]] = {}

    @property
    def alias(self) -> str:
        return self.config.alias

    @property
    def bridge(self) -> Bridge:
        """The bridge of the remote's `AUTH` strategy."""
        return self.config.bridge

    @property
    def is_async(self) -> bool:
        """Whether the remote's services have coroutine methods."""
        return self.config.kind.is_async

    @property
    def app(self) -> RemoteApp:
        """The app of the current thread (sync) or event loop (async), made on first use."""
        if self._per_loop:
            return self._loop_app()
        try:
            return self._local.app
        except AttributeError:
            return self._open_in_thread()

    @property
    def connection(self) -> BaseConnection:
        """The connection of the current thread or event loop."""
        connection = self.app.rest
        assert connection is not None
        return connection

    def service(self, path: str) -> Any:
        """The service at `path` of the remote, sending the remote's own credentials."""
        return self.app.service(path)

    def for_request(self, request: Any) -> Remote | BoundRemote:
        """
        The remote bound to the credentials of an incoming Django (or DRF) request.

        Only for the forwarding strategies; any other remote is returned as it is, so that
        nothing of the request is ever sent to it.
        """
        if not self.bridge.forwards:
            return self
        return BoundRemote(self, self.bridge.credentials_of(request))

    def close(self) -> None:
        """
        Close the connections of every thread and event loop; closing again does nothing.

        An async connection is closed in its event loop: at once when the loop is idle,
        scheduled when it runs; one whose loop is already closed is only forgotten.
        """
        with self._lock:
            # The threads' next calls find a new thread-local, and open new connections.
            local, self._local = self._local, threading.local()
            finalizers = list(self._threads.values())
            loops = [(loop, self._take_loop(loop)) for loop in list(self._loops)]
        for finalizer in finalizers:
            finalizer()
        for loop, (app, closer) in loops:
            _finish(closer)
            if app is not None and app.rest is not None:
                _close_in_loop(loop, self.config.kind.aclose(app.rest))
        del local  # the threads' holds go with it; their finalizers have run

    async def aclose(self) -> None:
        """Close the connection of the running event loop now, and the others (`close()`)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            app, closer = self._take_loop(loop)
        _finish(closer)
        if app is not None and app.rest is not None:
            await self.config.kind.aclose(app.rest)
        self.close()

    def _open(self) -> RemoteApp:
        config = self.config
        connection = config.kind.open(
            config.base_url, config.connection_options, config.client_options
        )
        return RemoteApp(self, connection)

    def _open_in_thread(self) -> RemoteApp:
        app = self._open()
        assert app.rest is not None  # set by RemoteApp from the connection it is given
        hold = _ThreadHold()
        token = next(self._tokens)
        finalizer = weakref.finalize(
            hold, _close_thread_connection, self._threads, token, self.config.kind, app.rest
        )
        with self._lock:
            self._threads[token] = finalizer
            local = self._local
            local.app = app
            local.hold = hold
        return app

    def _loop_app(self) -> RemoteApp:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                f"The remote {self.alias!r} has an async connection "
                f"({self.config.kind.name}): use its services inside the event loop that "
                "awaits them (in an async view, or a coroutine)."
            ) from None
        app = self._loops.get(loop)
        if app is None:
            app = self._open_in_loop(loop)
        return app

    def _open_in_loop(self, loop: asyncio.AbstractEventLoop) -> RemoteApp:
        with self._lock:
            app = self._loops.get(loop)
            if app is not None:
                return app
            # The connections of loops closed without shutting down can no longer be closed.
            forgotten = [self._take_loop(old)[1] for old in list(self._loops) if old.is_closed()]
            app = self._loops[loop] = self._open()
            if sys.get_asyncgen_hooks().firstiter is not None:
                closer = self._close_at_shutdown(loop)
                # Started here, it is one of the loop's async generators, closed (and so the
                # connection with it) by `loop.shutdown_asyncgens()`.
                _step(closer.asend(None))
                self._closers[loop] = closer
        for forgotten_closer in forgotten:
            _finish(forgotten_closer)
        return app

    def _take_loop(
        self, loop: asyncio.AbstractEventLoop
    ) -> tuple[RemoteApp | None, AsyncGenerator[None, None] | None]:
        # With the lock held: whoever takes a loop's app closes its connection.
        return self._loops.pop(loop, None), self._closers.pop(loop, None)

    async def _close_at_shutdown(
        self, loop: asyncio.AbstractEventLoop
    ) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                app, _ = self._take_loop(loop)
            # Not taken by `close()` or `aclose()`: the loop is shutting down its generators.
            if app is not None and app.rest is not None:
                await self.config.kind.aclose(app.rest)

    def __repr__(self) -> str:
        return f"<Remote {self.alias!r} base_url={self.config.base_url!r}>"


class _ThreadHold:
    """Kept in a thread's locals with the app: released with them as the thread ends."""

    __slots__ = ("__weakref__",)


def _close_thread_connection(
    threads: dict[int, Any], token: int, kind: ConnectionKind, connection: BaseConnection
) -> None:
    threads.pop(token, None)
    kind.close(connection)


def _step(awaitable: Any) -> None:
    # Run a coroutine that does not suspend (nothing left to await) to its end.
    try:
        awaitable.send(None)
    except StopIteration:
        return
    raise AssertionError(f"{awaitable!r} suspended")  # pragma: no cover


def _finish(closer: AsyncGenerator[None, None] | None) -> None:
    """End a loop's closer whose app was taken: its `finally` has nothing left to await."""
    if closer is None:
        return
    # A closer that is running is being shut down by its loop, and finds nothing to close.
    with contextlib.suppress(RuntimeError):
        _step(closer.aclose())


#: Closings scheduled in running event loops, kept until they are done.
_closings: set[Any] = set()


def _close_in_loop(loop: asyncio.AbstractEventLoop, closing: Coroutine[Any, Any, None]) -> None:
    if loop.is_closed():
        closing.close()
        return
    if not loop.is_running():
        loop.run_until_complete(closing)
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    future: Any = (
        loop.create_task(closing)
        if running is loop
        else asyncio.run_coroutine_threadsafe(closing, loop)
    )
    _closings.add(future)
    future.add_done_callback(_closings.discard)


class BoundRemote:
    """
    A remote with the credentials of one incoming request: `remote.for_request(request)`.

    Cheap to make; it shares the remote's pooled connections and never changes them.
    """

    def __init__(self, remote: Remote, credentials: Any) -> None:
        self.remote = remote
        self.credentials = credentials
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
        if app is None or app.rest is not connection:
            app = self._apps[id(connection)] = RemoteApp(self.remote, connection, self.credentials)
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

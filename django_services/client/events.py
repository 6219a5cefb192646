"""
Live service events over socket.io: `service.on()`, `off()`, `once()` and `events()`.

    todos = app.service("todos")
    todos.on("created", lambda todo: print("new", todo["text"]))
    todos.once("markedAllComplete", print)          # a custom event

    async with app.service("todos").events("created", "patched") as stream:
        async for event in stream:
            print(event.name, event.data)

A service event arrives as the socket.io event `<path> <event>` with one argument, the record;
`path` is the path the service was registered with on the server (`users/:userId/notes`).
Handlers receive that record. On a sync connection they run on python-socketio's threads, one
at a time; on an async one in the connection's event loop, coroutines awaited, in order. A
handler that raises is logged (logger `django_services.client.events`) and the others still run.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from .services import AsyncRestService, Params, RestService

__all__ = [
    "AsyncEventStream",
    "AsyncSocketService",
    "Event",
    "EventStream",
    "Listeners",
    "SocketService",
]

logger = logging.getLogger("django_services.client.events")

Handler = Callable[[Any], Any]


@dataclasses.dataclass(frozen=True)
class Event:
    """A service event: the service path, the event name and its data (usually one record)."""

    path: str
    name: str
    data: Any


class Listeners:
    """The handlers of a connection, by socket.io event name (`"todos created"`)."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[tuple[Handler, bool]]] = {}
        self._lock = threading.Lock()

    def add(self, event: str, handler: Handler, *, once: bool = False) -> None:
        """Call `handler(data)` for every `event` (only the next one with `once`)."""
        if not callable(handler):
            raise TypeError(f"An event handler must be callable, not {handler!r}.")
        with self._lock:
            self._handlers.setdefault(event, []).append((handler, once))

    def remove(self, event: str, handler: Handler | None = None) -> None:
        """Remove `handler` from `event` (every handler of `event` when `None`)."""
        with self._lock:
            handlers = self._handlers.get(event, [])
            kept = [] if handler is None else [h for h in handlers if h[0] != handler]
            if kept:
                self._handlers[event] = kept
            else:
                self._handlers.pop(event, None)

    def __contains__(self, event: object) -> bool:
        return event in self._handlers

    def _take(self, event: str) -> list[Handler]:
        with self._lock:
            handlers = self._handlers.get(event, [])
            kept = [h for h in handlers if not h[1]]
            if handlers and len(kept) != len(handlers):
                if kept:
                    self._handlers[event] = kept
                else:
                    self._handlers.pop(event, None)
            return [handler for handler, _ in handlers]

    def dispatch(self, event: str, data: Any) -> None:
        """Call the handlers of `event` with `data`, in the order they were added."""
        for handler in self._take(event):
            try:
                handler(data)
            except Exception:
                logger.exception("The handler %r of '%s' failed.", handler, event)

    async def adispatch(self, event: str, data: Any) -> None:
        """Call the handlers of `event`, awaiting the coroutines."""
        for handler in self._take(event):
            try:
                result = handler(data)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                logger.exception("The handler %r of '%s' failed.", handler, event)


class _EventsMixin:
    name: str
    connection: Any

    def _event_name(self, event: str) -> str:
        if not isinstance(event, str) or not event:
            raise TypeError(f"An event name must be a non-empty string, not {event!r}.")
        return f"{self.name} {event}"

    def on(self, event: str, handler: Handler) -> Any:
        """Call `handler(data)` for every `event` of this service; return the service."""
        self._check_handler(handler)
        self.connection.listeners.add(self._event_name(event), handler)
        return self

    def once(self, event: str, handler: Handler) -> Any:
        """Call `handler(data)` for the next `event` of this service only; return the service."""
        self._check_handler(handler)
        self.connection.listeners.add(self._event_name(event), handler, once=True)
        return self

    def off(self, event: str, handler: Handler | None = None) -> Any:
        """Stop calling `handler` (every handler of `event` when not given); return the service."""
        self.connection.listeners.remove(self._event_name(event), handler)
        return self

    def _check_handler(self, handler: Handler) -> None:
        pass


class SocketService(_EventsMixin, RestService):
    """A service over a sync socket.io connection: methods block, events call handlers."""

    def build_request(
        self, method: str, params: Params | None = None, *, id: Any = None, data: Any = None
    ) -> Any:
        """Describe the socket.io call of `method` (only the query crosses the wire)."""
        from .transports.socket_call import build_socket_call

        credential = getattr(self.connection, "access_token", None)
        return build_socket_call(method, self.name, params, id=id, data=data, credential=credential)

    def events(self, *names: str, timeout: float | None = None) -> EventStream:
        """
        Iterate over the events `names` of this service as they arrive, blocking.

        Subscribed at once; with `timeout`, the iteration stops after that many seconds
        without an event. Use it in a `with` block (or call `close()`) to unsubscribe.
        """
        return EventStream(self, names, timeout)

    def _check_handler(self, handler: Handler) -> None:
        if inspect.iscoroutinefunction(handler):
            raise TypeError(
                "A coroutine handler needs an async connection (socketio.AsyncClient); on a "
                "sync connection handlers are plain functions."
            )


class AsyncSocketService(_EventsMixin, AsyncRestService):
    """A service over an async socket.io connection: coroutine methods and handlers."""

    def build_request(
        self, method: str, params: Params | None = None, *, id: Any = None, data: Any = None
    ) -> Any:
        """Describe the socket.io call of `method` (only the query crosses the wire)."""
        from .transports.socket_call import build_socket_call

        credential = getattr(self.connection, "access_token", None)
        return build_socket_call(method, self.name, params, id=id, data=data, credential=credential)

    def events(self, *names: str) -> AsyncEventStream:
        """
        Iterate (`async for`) over the events `names` of this service as they arrive.

        Subscribed at once; use it in an `async with` block (or call `close()`) to
        unsubscribe.
        """
        return AsyncEventStream(self, names)


class _Subscription:
    def __init__(self, service: Any, names: tuple[str, ...], arrived: Any) -> None:
        if not names:
            raise TypeError("events() needs at least one event name, e.g. 'created'.")
        self.service = service
        self.arrived = arrived
        self.handlers = [(name, _putter(arrived, service.name, name)) for name in names]
        for name, handler in self.handlers:
            service.on(name, handler)

    def close(self) -> None:
        """Unsubscribe: no more events are queued."""
        for name, handler in self.handlers:
            self.service.off(name, handler)
        self.handlers = []


class EventStream(_Subscription):
    """The events of a sync service, in the order they arrive: `for event in stream`."""

    def __init__(self, service: Any, names: tuple[str, ...], timeout: float | None) -> None:
        super().__init__(service, names, queue.Queue())
        self.timeout = timeout

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        self.service.connection.connect()
        try:
            return self.arrived.get(timeout=self.timeout)
        except queue.Empty:
            raise StopIteration from None

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


class AsyncEventStream(_Subscription):
    """The events of an async service, in the order they arrive: `async for event in stream`."""

    def __init__(self, service: Any, names: tuple[str, ...]) -> None:
        super().__init__(service, names, asyncio.Queue())

    def __aiter__(self) -> AsyncIterator[Event]:
        return self

    async def __anext__(self) -> Event:
        await self.service.connection.connect()
        return await self.arrived.get()

    async def __aenter__(self) -> AsyncEventStream:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self.close()


def _putter(arrived: Any, path: str, name: str) -> Handler:
    def put(data: Any) -> None:
        arrived.put_nowait(Event(path, name, data))

    return put

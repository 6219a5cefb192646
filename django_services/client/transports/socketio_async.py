"""
The socket.io connection for asyncio: `AsyncSocketIOTransport` runs on python-socketio's
`AsyncClient`, service methods are coroutines. What it promises is said in
`connections/socketio.py`, beside its synchronous twin.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import socketio

from ...errors import FeathersError, Unavailable
from .._base import TransportFailure
from ..events import AsyncSocketService
from .base import BaseTransport
from .socket_call import SocketAck, SocketCall
from .socket_state import (
    SocketState,
    engine_ended,
    reconnect_task,
)

__all__ = ["AsyncSocketIOTransport"]


class AsyncSocketIOTransport(SocketState, BaseTransport):
    """
    Sends calls over a python-socketio `AsyncClient`: service methods are coroutines.

    Event handlers run in the event loop of the connection: coroutine functions are awaited,
    plain functions called, one after the other in the order the events arrive.
    """

    is_async = True
    name = "socketio-async"
    library = "socketio"
    extra = "socketio"
    client_class = socketio.AsyncClient
    default_service_class = AsyncSocketService

    def __init__(self, client: Any = None, **kwargs: Any) -> None:
        options = self._setup(kwargs.pop("options", None))
        client = socketio.AsyncClient() if client is None else client
        self._check_client(client, socketio.AsyncClient)
        super().__init__(client, options=options, **kwargs)
        self._ready: asyncio.Event | None = None
        self._lock: asyncio.Lock | None = None
        #: The answers awaited: failed when the connection drops.
        self._pending: set[asyncio.Future[tuple[Any, ...]]] = set()
        self._dispatch_lock: asyncio.Lock | None = None

    def _primitives(self) -> tuple[asyncio.Event, asyncio.Lock]:
        if self._ready is None or self._lock is None:
            self._ready, self._lock = asyncio.Event(), asyncio.Lock()
            self._dispatch_lock = asyncio.Lock()
        return self._ready, self._lock

    async def connect(self) -> None:
        """Connect now (calls connect by themselves); raise `Unavailable` when it fails."""
        _, lock = self._primitives()
        async with lock:
            if self.closed:
                raise Unavailable(f"The socket.io connection to {self.base} is closed.")
            if self.up and self.client.connected:
                return
            await self._settle()
            try:
                await self.client.connect(self.base, **self._connect_options())
            except socketio.exceptions.ConnectionError as exc:
                raise self._refused(exc) from exc
            except ValueError as exc:  # python-engineio is still ending the last connection
                raise Unavailable(f"Can not connect to {self.base}: {exc}") from exc
            await self._restore()

    async def _settle(self) -> None:
        # A disconnect the server asked for ends in python-socketio's tasks; it can not
        # connect again before it has.
        engine = self.client.eio
        deadline = time.monotonic() + self.timeout.connect
        while self.client.connected or not engine_ended(engine):
            if time.monotonic() > deadline:
                return
            reader = engine.read_loop_task
            if reader is not None and not reader.done() and reader is not asyncio.current_task():
                await asyncio.wait([reader], timeout=0.05)
            else:
                await asyncio.sleep(0.01)

    async def send(self, call: SocketCall) -> SocketAck:
        """Send the call once the socket is ready; the ack, or `TransportFailure` for none."""
        if not isinstance(call, SocketCall):
            raise TypeError(f"A socket.io transport sends a SocketCall, not {call!r}.")
        await self._wait_until_ready(call)
        return await self._emit(call)

    async def _emit(self, request: SocketCall) -> SocketAck:
        answered: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

        def callback(*args: Any) -> None:
            if not answered.done():
                answered.set_result(args)

        if not self.up:
            raise TransportFailure(request, ConnectionError("the connection is down"))
        self._pending.add(answered)
        try:
            await self.client.emit(request.event, request.args, callback=callback)
            args = await asyncio.wait_for(asyncio.shield(answered), self._call_timeout(request))
            return SocketAck.of(args)
        except asyncio.TimeoutError as exc:
            raise TransportFailure(request, exc, timed_out=True) from exc
        except (socketio.exceptions.SocketIOError, ConnectionError) as exc:
            raise TransportFailure(request, exc) from exc
        finally:
            self._pending.discard(answered)

    def close(self) -> None:
        """Only marks the connection closed: close it with `await connection.aclose()`."""
        self.closed = True

    async def aclose(self) -> None:
        """Disconnect, stop reconnecting, and wait for python-socketio's tasks to end."""
        self.closed = True
        ready, _ = self._primitives()
        ready.set()
        await self.client.shutdown()
        eio = getattr(self.client, "eio", None)
        tasks = [getattr(eio, name, None) for name in ("read_loop_task", "write_loop_task")]
        current = asyncio.current_task()
        pending = [task for task in tasks if task is not None and task is not current]
        if pending:
            await asyncio.wait(pending, timeout=self.timeout.connect)

    async def _wait_until_ready(self, request: SocketCall) -> None:
        ready, _ = self._primitives()
        if self.closed:
            raise self._unavailable(request, "The socket.io connection is closed")
        if ready.is_set() and self.up:
            return
        if not self.reconnecting:
            await self.connect()
            return
        try:
            await asyncio.wait_for(ready.wait(), self._call_timeout(request))
        except asyncio.TimeoutError:
            raise self._unavailable(request, "The socket.io connection is down") from None
        if self.closed or not self.up:
            raise self._unavailable(request, "The socket.io connection is down")

    async def _on_connect(self) -> None:
        self.up = True
        if not self.reconnecting or self.closed:
            return
        self.client.start_background_task(self._restore)

    async def _restore(self) -> None:
        # As the threaded connection's: the waiting calls go once python-socketio's reconnect
        # has returned from `connect()`, so that it sees the next transport loss.
        task = reconnect_task(self.client)
        if isinstance(task, asyncio.Future) and task is not asyncio.current_task():
            await asyncio.wait({task}, timeout=self.timeout.connect)
        ready, _ = self._primitives()
        if self._forget_unseen_loss():
            # The calls waiting for the reconnect fail; the next call connects again.
            self.up = False
            self.reconnecting = False
            ready.set()
            return
        login = self._login_again()
        if login is not None:
            try:
                self._outcome(login, await self._emit(login))
            except (FeathersError, TransportFailure) as error:
                if self._dropped_during_login(error):
                    return
        self.reconnecting = False
        ready.set()

    async def _on_disconnect(self, reason: Any = None) -> None:
        ready, _ = self._primitives()
        ready.clear()
        self._note_disconnect(reason)
        self.up = False
        pending, self._pending = self._pending, set()
        for answered in pending:
            if not answered.done():
                answered.set_exception(ConnectionError("the connection dropped"))
        if self.closed:
            ready.set()

    async def _on_event(self, event: str, *args: Any) -> None:
        self._primitives()
        assert self._dispatch_lock is not None
        async with self._dispatch_lock:
            await self.listeners.adispatch(event, args[0] if args else None)

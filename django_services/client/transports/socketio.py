"""
The transports over socket.io: calls are events with an ack, and service events arrive live.

    app = App().configure(socketio_client("https://api.example.com"))
    app.configure(authentication_client())
    app.authenticate({"strategy": "local", "email": "ada@example.com", "password": "secret"})
    app.service("todos").on("created", print)

`SocketIOTransport` runs on python-socketio's `Client` (service methods block),
`AsyncSocketIOTransport` on its `AsyncClient` (coroutines). The socket connects on the first
call (or `connect()`); python-socketio reconnects it with backoff after a transport loss, and the
connection then logs in again with the token of the last login made over it, before any other
call is sent. Against a socket.io server with connection state recovery on, the reconnect
resumes the socket's session (the missed events replayed first; `connection.recovered`). A call
made while disconnected waits for the connection up to its timeout, then
raises `Unavailable`; a call whose ack does not arrive in time raises `Timeout`. With
`options["retries"]`, a call is sent again as over REST: idempotent methods only, after a lost
connection or a 429/502/503/504 answer, waiting the `retryAfter` the server asked for.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from typing import Any

import socketio

from ...errors import FeathersError, Unavailable
from .._base import TransportFailure
from ..events import SocketService
from .base import BaseTransport
from .socket_call import SocketAck, SocketCall, build_socket_call
from .socket_state import (
    SocketState,
    engine_ended,
    reconnect_task,
)
from .socketio_async import AsyncSocketIOTransport

__all__ = [
    "AsyncSocketIOTransport",
    "SocketCall",
    "SocketIOTransport",
    "build_socket_call",
]


class SocketIOTransport(SocketState, BaseTransport):
    """
    Sends calls over a python-socketio `Client` (blocking).

    Event handlers registered with `service.on()` run on a thread of the connection, one at a
    time, in the order the server sent the events.
    """

    name = "socketio"
    library = "socketio"
    extra = "socketio"
    client_class = socketio.Client
    default_service_class = SocketService

    def __init__(self, client: Any = None, **kwargs: Any) -> None:
        options = self._setup(kwargs.pop("options", None))
        client = socketio.Client() if client is None else client
        self._check_client(client, socketio.Client)
        super().__init__(client, options=options, **kwargs)
        self._ready = threading.Event()
        self._lock = threading.RLock()
        #: Guards `up` and `_pending`, which the socket's thread changes when it drops.
        self._state_lock = threading.Lock()
        #: The answers awaited: released, with no answer, when the connection drops.
        self._pending: set[threading.Event] = set()
        #: The events the handlers have yet to see, and the thread that hands them over.
        self._events: queue.SimpleQueue[tuple[str, Any] | None] | None = None
        self._dispatcher: threading.Thread | None = None

    def connect(self) -> None:
        """Connect now (calls connect by themselves); raise `Unavailable` when it fails."""
        with self._lock:
            if self.closed:
                raise Unavailable(f"The socket.io connection to {self.base} is closed.")
            if self.up and self.client.connected:
                return
            self._settle()
            try:
                self.client.connect(self.base, **self._connect_options())
            except socketio.exceptions.ConnectionError as exc:
                raise self._refused(exc) from exc
            except ValueError as exc:  # python-engineio is still ending the last connection
                raise Unavailable(f"Can not connect to {self.base}: {exc}") from exc
            self._restore()

    def _settle(self) -> None:
        # A disconnect the server asked for ends on the socket's threads; python-socketio can
        # not connect again before it has.
        engine = self.client.eio
        deadline = time.monotonic() + self.timeout.connect
        while self.client.connected or not engine_ended(engine):
            if time.monotonic() > deadline:
                return
            reader = engine.read_loop_task
            if reader is not None and reader is not threading.current_thread():
                reader.join(0.05)
            else:
                time.sleep(0.01)

    def send(self, call: SocketCall) -> SocketAck:
        """Send the call once the socket is ready; the ack, or `TransportFailure` for none."""
        if not isinstance(call, SocketCall):
            raise TypeError(f"A socket.io transport sends a SocketCall, not {call!r}.")
        self._wait_until_ready(call)
        return self._emit(call)

    def _emit(self, request: SocketCall) -> SocketAck:
        answered = threading.Event()
        ack: list[tuple[Any, ...]] = []

        def callback(*args: Any) -> None:
            ack.append(args)
            answered.set()

        with self._state_lock:
            if not self.up:
                raise TransportFailure(request, ConnectionError("the connection is down"))
            self._pending.add(answered)
        try:
            self.client.emit(request.event, request.args, callback=callback)
            if not answered.wait(self._call_timeout(request)):
                raise TransportFailure(request, TimeoutError("no answer"), timed_out=True)
        except socketio.exceptions.SocketIOError as exc:
            raise TransportFailure(request, exc) from exc
        finally:
            with self._state_lock:
                self._pending.discard(answered)
        if not ack:
            raise TransportFailure(request, ConnectionError("the connection dropped"))
        return SocketAck.of(ack[0])

    def close(self) -> None:
        """Disconnect, stop reconnecting, and end python-socketio's threads."""
        with self._lock:
            self.closed = True
            self._ready.set()
        self.client.shutdown()
        eio = getattr(self.client, "eio", None)
        tasks = [getattr(eio, name, None) for name in ("read_loop_task", "write_loop_task")]
        with self._state_lock:
            if self._events is not None:
                self._events.put(None)
                self._events = None
        tasks += [getattr(eio, "message_task", None), self._dispatcher]
        for task in tasks:
            if task is not None and task is not threading.current_thread():
                task.join(self.timeout.connect)

    def _wait_until_ready(self, request: SocketCall) -> None:
        if self.closed:
            raise self._unavailable(request, "The socket.io connection is closed")
        if self._ready.is_set() and self.up:
            return
        if not self.reconnecting:
            self.connect()
            return
        if not self._ready.wait(self._call_timeout(request)) or not self.up:
            raise self._unavailable(request, "The socket.io connection is down")
        if self.closed:
            raise self._unavailable(request, "The socket.io connection is closed")

    def _on_connect(self) -> None:
        with self._state_lock:
            self.up = True
        if not self.reconnecting or self.closed:
            return
        # A reconnect: log in again before the waiting calls go, on a thread of its own, as
        # this handler runs on the thread that reads the socket.
        self.client.start_background_task(self._restore)

    def _restore(self) -> None:
        self._wait_for_reconnect_to_return()
        if self._forget_unseen_loss():
            # The calls waiting for the reconnect fail; the next call connects again.
            with self._state_lock:
                self.up = False
            self.reconnecting = False
            self._ready.set()
            return
        login = self._login_again()
        if login is not None:
            try:
                self._outcome(login, self._emit(login))
            except (FeathersError, TransportFailure) as error:
                if self._dropped_during_login(error):
                    return
        self.reconnecting = False
        self._ready.set()

    def _wait_for_reconnect_to_return(self) -> None:
        # The waiting calls go once python-socketio's reconnect has returned (see
        # `_forget_unseen_loss`).
        task = reconnect_task(self.client)
        if isinstance(task, threading.Thread) and task is not threading.current_thread():
            task.join(self.timeout.connect)

    def _on_disconnect(self, reason: Any = None) -> None:
        self._ready.clear()
        self._note_disconnect(reason)
        if self.reconnecting:
            # python-engineio leaves the websocket of a lost transport open; a new one is made.
            websocket = getattr(self.client.eio, "ws", None)
            if websocket is not None:
                with contextlib.suppress(Exception):
                    websocket.shutdown()
        with self._state_lock:
            self.up = False
            pending, self._pending = self._pending, set()
        for answered in pending:
            answered.set()
        if self.closed:
            self._ready.set()

    def _on_event(self, event: str, *args: Any) -> None:
        # The socket's thread handles the server's packets in order; the handlers run on a
        # thread of their own, so one that calls the server does not hold up its answer.
        with self._state_lock:
            if self._events is None:
                self._events = queue.SimpleQueue()
                self._dispatcher = threading.Thread(
                    target=self._dispatch, args=(self._events,), name="socketio-events", daemon=True
                )
                self._dispatcher.start()
            self._events.put((event, args[0] if args else None))

    def _dispatch(self, events: queue.SimpleQueue[tuple[str, Any] | None]) -> None:
        while (item := events.get()) is not None:
            self.listeners.dispatch(*item)

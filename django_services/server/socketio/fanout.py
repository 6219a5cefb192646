"""
Sending one event to many sockets at a lower cost per recipient than python-socketio's own.

    sio = socketio.AsyncServer(client_manager=Manager())          # or RedisManager(url)

python-socketio encodes an event once, then creates an asyncio task per recipient to put the
engine.io packet on that socket's queue; python-engineio's websocket writer then waits for its
queue with `asyncio.wait_for`, which on Python 3.11 adds a task and a timer per packet. At a few
hundred sockets these, not the JSON or the socket writes, are most of an event's cost.

`Manager` (and `RedisManager`, for python-socketio's Redis manager) puts the one encoded packet
straight on each recipient's queue, in order, without a task per recipient, giving the loop a
turn every `SLICE` recipients so that other sockets' calls do not wait behind a large fan-out;
emits with an acknowledgement callback and binary attachments keep python-socketio's path.
Each engine.io socket's packets wait in a `SocketQueue`, lighter than `asyncio.Queue`.
`install_writer()` (done by the managers) makes engine.io's websocket writer wait for its
queue without `wait_for`: its reader already ends it when the client goes silent; and
`install_pings()` (done by the managers too) sends each socket's pings from a timer of the
event loop, where python-engineio keeps a task sleeping between two pings for every socket.

This module is the only one that reaches into python-socketio's and python-engineio's
internals (the rooms of the manager, engine.io's sockets and their queues); the versions
pyproject.toml allows (python-socketio 5.13 and later) share them, and tests/server/socketio checks
each assumption against the installed versions.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import socketio
from engineio import async_socket, exceptions
from engineio import packet as eio_packet
from socketio import packet

from .. import telemetry
from . import reads

__all__ = [
    "SLICE",
    "Manager",
    "RedisManager",
    "SocketQueue",
    "install_pings",
    "install_writer",
]

#: Recipients given their packet between two turns of the event loop.
SLICE = 128


class Manager(socketio.AsyncManager):
    """python-socketio's `AsyncManager`, with a fan-out of one encoded packet to many sockets."""

    _fanout_lock: asyncio.Lock | None = None
    #: `await read_filter(read, sids, checked)`: the sockets among `sids` whose user may read
    #: the event `read` describes (set by the server, see `reads.recipients`; without it,
    #: events with a read rule reach nobody).
    read_filter: (
        Callable[[Mapping[str, Any], list[str], Mapping[str, Any] | None], Awaitable[list[str]]]
        | None
    ) = None

    def set_server(self, server: Any) -> None:
        super().set_server(server)
        # engine.io makes each socket's packet queue with its server's `create_queue`.
        server.eio.create_queue = SocketQueue

    def initialize(self) -> None:
        super().initialize()
        install_writer()
        install_pings()

    async def emit(
        self,
        event: str,
        data: Any,
        namespace: str,
        room: Any = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: Any = None,
        read: Mapping[str, Any] | None = None,
        checked: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """
        Send `event` to the room's sockets (python-socketio's signature and semantics); with
        `read`, only to those whose user may read it (`reads`), as `checked` already says.
        """
        room = to or room
        if self._fanout_lock is None:
            self._fanout_lock = asyncio.Lock()
        if read is not None:
            # One fan-out at a time, the read check included: events stay in order.
            async with self._fanout_lock:
                room = await self._readers(read, namespace, room, skip_sid, checked)
                if room:
                    await self._emit(event, data, namespace, room, None, callback, **kwargs)
            return
        if callback is not None or namespace not in self.rooms:
            await super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
            return
        async with self._fanout_lock:
            await self._emit(event, data, namespace, room, skip_sid, callback, **kwargs)

    async def _readers(
        self,
        read: Mapping[str, Any],
        namespace: str,
        room: Any,
        skip_sid: Any,
        checked: Mapping[str, Any] | None,
    ) -> list[str]:
        """The sockets of `room` whose user may read the event: nobody without a reader."""
        if namespace not in self.rooms or self.read_filter is None:
            return []
        skipped = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
        sids = [sid for sid, _ in self.get_participants(namespace, room) if sid not in skipped]
        if not sids:
            return []
        return await self.read_filter(read, sids, checked)

    async def _emit(
        self,
        event: str,
        data: Any,
        namespace: str,
        room: Any,
        skip_sid: Any,
        callback: Any,
        **kwargs: Any,
    ) -> None:
        """Fan one encoded packet out to the room's sockets (the fan-out lock held)."""
        if callback is not None or namespace not in self.rooms:
            await super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
            return
        arguments = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(
            packet.EVENT, namespace=namespace, data=[event, *arguments]
        ).encode()
        if isinstance(encoded, list):
            # Binary attachments travel as several packets: python-socketio's own path.
            await super().emit(event, data, namespace, room, skip_sid, **kwargs)
            return
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        message.encode()  # cached: every recipient's writer sends the same string
        skipped = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
        recipients = [
            eio_sid for sid, eio_sid in self.get_participants(namespace, room) if sid not in skipped
        ]
        await self._fan_out(recipients, message)
        telemetry.delivered(event, len(recipients))

    async def _fan_out(self, recipients: list[str], message: Any) -> None:
        sockets = self.server.eio.sockets
        ping_timeout = self.server.eio.ping_timeout
        for start in range(0, len(recipients), SLICE):
            if start:
                await asyncio.sleep(0)
            now = time.time()
            for eio_sid in recipients[start : start + SLICE]:
                socket = sockets.get(eio_sid)
                if socket is None or socket.closed:
                    continue
                last_ping = socket.last_ping
                if last_ping and now - last_ping > ping_timeout:
                    # A client gone silent: engine.io's own send closes the socket.
                    await self.server._send_eio_packet(eio_sid, message)
                    continue
                socket.queue.put_nowait(message)


class RedisManager(socketio.AsyncRedisManager, Manager):
    """
    python-socketio's `AsyncRedisManager`, each process fanning out as `Manager` does. An
    event's read rule travels with it, and each process checks it for its own sockets.
    Events leave for the other processes in the order they were emitted.
    """

    _publish_lock: asyncio.Lock | None = None
    #: `await logged_handler(message)`: a logged event another process published (set by
    #: the server, see `publishing.EventSender.receive_logged`).
    logged_handler: Callable[[dict[str, Any]], Awaitable[None]] | None = None

    async def publish_logged(self, message: dict[str, Any]) -> None:
        """Publish a logged event to the other processes, after the emits before it."""
        if self._publish_lock is None:
            self._publish_lock = asyncio.Lock()
        async with self._publish_lock:
            await self._publish({**message, "host_id": self.host_id})

    async def emit(
        self,
        event: str,
        data: Any,
        namespace: str = "/",
        room: Any = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: Any = None,
        read: Mapping[str, Any] | None = None,
        checked: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """
        python-socketio's emit to every process; with `read`, each checks it for its own
        sockets (this one as `checked` says, if given).
        """
        if kwargs.get("ignore_queue"):
            await super().emit(event, data, namespace, room, skip_sid, callback, to, **kwargs)
            return
        if self._publish_lock is None:
            self._publish_lock = asyncio.Lock()
        # Two publishes at once may take two Redis connections and arrive swapped: one at a
        # time, so that every process gets one process's events in the order sent.
        async with self._publish_lock:
            if read is None:
                await super().emit(event, data, namespace, room, skip_sid, callback, to, **kwargs)
                return
            room = to or room
            await Manager.emit(
                self, event, data, namespace, room, skip_sid, read=read, checked=checked
            )
            message = reads.emit_message(event, data, namespace, room, read)
            message["skip_sid"] = skip_sid
            message["host_id"] = self.host_id
            await self._publish(message)

    async def _handle_emit(self, message: dict[str, Any]) -> None:
        if "offset" in message:
            if self.logged_handler is not None:
                await self.logged_handler(message)
            return
        read = message.get("read")
        if read is None:
            await super()._handle_emit(message)
            return
        await Manager.emit(
            self,
            message["event"],
            message["data"][0],
            namespace=message.get("namespace") or "/",
            room=message.get("room"),
            skip_sid=message.get("skip_sid"),
            read=read,
        )


class SocketQueue:
    """
    One engine.io socket's packets: the part of `asyncio.Queue` engine.io uses (unbounded),
    in a fraction of its memory (a list where `asyncio.Queue` keeps four deques of 600 bytes
    or more each, for its items, getters, putters and `join`'s event), and without the loop
    lookups of every `get`.
    """

    __slots__ = ("_finished", "_getters", "_items", "_unfinished")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._items: list[Any] = []
        self._getters: list[asyncio.Future[None]] = []
        self._unfinished = 0
        self._finished: asyncio.Event | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return False

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        self._unfinished += 1
        self._wake_one()

    async def put(self, item: Any) -> None:
        self.put_nowait(item)

    def get_nowait(self) -> Any:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    async def get(self) -> Any:
        while not self._items:
            getter = asyncio.get_running_loop().create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()
                if getter in self._getters:
                    self._getters.remove(getter)
                elif self._items:
                    # Woken, then cancelled: the wake-up goes to the next getter.
                    self._wake_one()
                raise
        return self._items.pop(0)

    def task_done(self) -> None:
        if self._unfinished <= 0:
            raise ValueError("task_done() called too many times")
        self._unfinished -= 1
        if self._unfinished == 0 and self._finished is not None:
            self._finished.set()

    async def join(self) -> None:
        if self._unfinished:
            if self._finished is None or self._finished.is_set():
                self._finished = asyncio.Event()
            await self._finished.wait()

    def _wake_one(self) -> None:
        while self._getters:
            getter = self._getters.pop(0)
            if not getter.done():
                getter.set_result(None)
                return


_WRITER_INSTALLED = False


def install_writer() -> None:
    """Make engine.io's websocket writer wait for its packets without a timeout per packet."""
    global _WRITER_INSTALLED
    if not _WRITER_INSTALLED:
        async_socket.AsyncSocket.poll = _poll
        _WRITER_INSTALLED = True


async def _poll(self: Any) -> list[Any]:
    """
    engine.io's `AsyncSocket.poll`: the packets waiting, or a wait for the next one.

    A long-poll waits at most a ping interval and timeout, as engine.io's own does. A websocket
    writer (the socket is `upgraded`) waits without a timer: its reader, which times out on a
    silent client, puts the None that ends the writer whenever the socket ends.
    """
    queue = self.queue
    if not queue.empty():
        first = queue.get_nowait()
    elif self.upgraded:
        first = await queue.get()
    else:
        delay = self.server.ping_interval + self.server.ping_timeout
        try:
            first = await asyncio.wait_for(queue.get(), delay)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            raise exceptions.QueueEmpty() from None
    queue.task_done()
    if first is None:
        return []
    packets = [first]
    while not queue.empty():
        pkt = queue.get_nowait()
        queue.task_done()
        if pkt is None:
            queue.put_nowait(None)
            break
        packets.append(pkt)
    return packets


_PINGS_INSTALLED = False


def install_pings() -> None:
    """Make engine.io's sockets wait for their next ping with a timer instead of a task."""
    global _PINGS_INSTALLED
    if not _PINGS_INSTALLED:
        async_socket.AsyncSocket.schedule_ping = _schedule_ping
        _PINGS_INSTALLED = True


def _schedule_ping(self: Any) -> None:
    """
    engine.io's `AsyncSocket.schedule_ping` (at the handshake, and on each pong): the next
    ping in `ping_interval` seconds. A pong that comes while a ping is already scheduled
    starts no second one.
    """
    if getattr(self, "_ping_timer", None) is not None:
        return
    # No ping awaits its pong until the next is sent: engine.io's ping timeout starts then.
    self.last_ping = None
    loop = asyncio.get_running_loop()
    self._ping_timer = loop.call_later(self.server.ping_interval, _send_ping, self)


def _send_ping(socket: Any) -> None:
    """engine.io's `AsyncSocket._send_ping` after its sleep, without a task of its own."""
    socket._ping_timer = None
    if not socket.closing and not socket.closed:
        socket.last_ping = time.time()
        socket.queue.put_nowait(eio_packet.Packet(eio_packet.PING))

"""
What python-engineio does per socket, made lighter for many sockets.

Each engine.io socket's packets wait in a `SocketQueue`, lighter than `asyncio.Queue`, which
counts the bytes it holds (`nbytes`, what `outgoing` bounds). `install_writer()` makes
engine.io's websocket writer wait for its queue without `wait_for` (its reader already ends
it when the client goes silent, and while it waits with nothing before it the queue is
`idle()`, so that a frame written to the connection now comes after every packet sent), and
take its packets one at a time, so that those its connection has not taken stay counted in
the queue; `install_pings()` sends each socket's pings from a timer of the event loop,
where python-engineio keeps a task sleeping between two pings for every socket; and
`install_websocket(eio)` makes each websocket note its ASGI `send` on its engine.io socket
(`websocket_send`), the channel `uvicorn_frames` writes past. The managers of `fanout`
install all three.

Like `fanout`, this module reaches into python-engineio's internals (its sockets and their
queues); tests/server/socketio checks each assumption against the installed versions.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from engineio import async_socket, exceptions
from engineio import packet as eio_packet
from engineio.async_drivers import asgi as eio_asgi

__all__ = ["SocketQueue", "install_pings", "install_websocket", "install_writer"]


class SocketQueue:
    """
    One engine.io socket's packets: the part of `asyncio.Queue` engine.io uses (unbounded),
    in a fraction of its memory (a list where `asyncio.Queue` keeps four deques of 600 bytes
    or more each, for its items, getters, putters and `join`'s event), and without the loop
    lookups of every `get`.
    """

    __slots__ = ("_finished", "_getters", "_items", "_unfinished", "_writer_waiting", "nbytes")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._items: list[Any] = []
        #: The length of the packets waiting, encoded (their characters, for text).
        self.nbytes = 0
        self._getters: list[asyncio.Future[None]] = []
        self._unfinished = 0
        self._finished: asyncio.Event | None = None
        self._writer_waiting = False

    def idle(self) -> bool:
        """
        Whether the socket's websocket writer waits for a packet with none before it: whatever
        is written to the socket now comes after everything it has sent.
        """
        return self._writer_waiting and not self._items

    async def writer_get(self) -> Any:
        """`get()` for the websocket writer, which is `idle()` while it waits."""
        self._writer_waiting = True
        try:
            return await self.get()
        finally:
            self._writer_waiting = False

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return False

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        self.nbytes += _size(item)
        self._unfinished += 1
        self._wake_one()

    async def put(self, item: Any) -> None:
        self.put_nowait(item)

    def get_nowait(self) -> Any:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._taken(self._items.pop(0))

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
        return self._taken(self._items.pop(0))

    def _taken(self, item: Any) -> Any:
        # Recounted from nothing once empty: a packet encoded while it waited counts its
        # encoding when it leaves.
        self.nbytes = self.nbytes - _size(item) if self._items else 0
        return item

    def drop(self) -> int:
        """Forget every packet waiting (a connection cut off): how many there were."""
        dropped = len(self._items)
        self._items.clear()
        self.nbytes = 0
        for _ in range(dropped):
            self.task_done()
        return dropped

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


def _size(item: Any) -> int:
    """The length of an engine.io packet once encoded (its cached encoding when it has one)."""
    encoded = getattr(item, "encode_cache", None)
    if encoded:
        return len(encoded)
    data = getattr(item, "data", None)
    # `encode()` is not called here: it caches one encoding, base64 or not, for both transports.
    if isinstance(data, (str, bytes, bytearray)):
        return 1 + len(data)
    return 0 if item is None else 1


class _NotedWebSocket(eio_asgi.WebSocket):
    """engine.io's ASGI websocket, noting its ASGI `send` on its engine.io socket."""

    async def __call__(self, environ: dict[str, Any]) -> Any:
        socket = getattr(self.handler, "__self__", None)
        if socket is not None:
            socket.websocket_send = environ["asgi.send"]
        return await super().__call__(environ)


def install_websocket(eio: Any) -> None:
    """
    Make the websockets of engine.io server `eio` note their ASGI `send` on their socket
    (`websocket_send`), where the fan-out finds the connection to write its frame to.
    """
    # The server's own copy of its driver's table: other servers keep engine.io's class.
    if eio._async.get("websocket") is eio_asgi.WebSocket:
        eio._async = {**eio._async, "websocket": _NotedWebSocket}


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

    A long-poll waits at most a ping interval and timeout, as engine.io's own does, and takes
    every packet waiting. A websocket writer (the socket is `upgraded`) waits without a timer
    (its reader, which times out on a silent client, puts the None that ends the writer
    whenever the socket ends), and takes one packet: the others stay in the queue, counted,
    until the connection has taken the one before.
    """
    queue = self.queue
    if self.upgraded:
        if not queue.empty():
            first = queue.get_nowait()
        else:
            writer_get = getattr(queue, "writer_get", None)
            first = await (queue.get() if writer_get is None else writer_get())
        queue.task_done()
        return [] if first is None else [first]
    if not queue.empty():
        first = queue.get_nowait()
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

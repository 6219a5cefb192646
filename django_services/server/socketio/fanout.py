"""
Sending one event to many sockets at a lower cost per recipient than python-socketio's own.

    sio = socketio.AsyncServer(client_manager=Manager())          # or RedisManager(url)

python-socketio encodes an event once, then creates an asyncio task per recipient to put the
engine.io packet on that socket's queue; python-engineio's websocket writer then waits for its
queue with `asyncio.wait_for`, which on Python 3.11 adds a task and a timer per packet. At a few
hundred sockets these, not the JSON or the socket writes, are most of an event's cost.

`Manager` (and `RedisManager`, for python-socketio's Redis manager) encodes an event once:
its engine.io packet, and that packet's websocket frame. A websocket whose writer waits with
nothing queued (`SocketQueue.idle()`) gets the frame written to its connection's transport at
once (`uvicorn_frames`: under uvicorn, while the connection is open, not compressing and its
transport not full); any other socket gets the one packet put on its queue, in order, for its
writer, and a socket with more than `SOCKETIO_OUTGOING_LIMIT` bytes waiting is cut off
(`outgoing`). Neither costs a task per recipient. The loop gets a turn every `SLICE` recipients so
that other sockets' calls do not wait behind a large fan-out. An event whose data is a tuple
(a logged event and its offset) is spread into several arguments, the same for every
recipient. Emits with an acknowledgement callback and binary attachments keep python-socketio's
path. Each engine.io socket's packets wait in a `SocketQueue`, and its writer, pings and
websocket are changed by `install_writer()`, `install_pings()` and `install_websocket()`
(done by the managers): see `engine_queues`.

This module and `engine_queues` are the only ones that reach into python-socketio's and
python-engineio's internals (the rooms of the manager, engine.io's sockets, their queues and
websockets), and `uvicorn_frames` the only one into uvicorn's protocols;
the versions pyproject.toml allows (python-socketio 5.14 and later) share them, and
tests/server/socketio checks each assumption against the installed versions.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import socketio
from engineio import packet as eio_packet
from socketio import packet

from .. import telemetry
from . import outgoing, reads, uvicorn_frames
from .engine_queues import SocketQueue, install_pings, install_websocket, install_writer

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
        install_websocket(server.eio)

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
                readers = await self._readers(read, namespace, room, skip_sid, checked)
                if readers:
                    await self._emit(
                        event, data, namespace, None, None, callback, readers=readers, **kwargs
                    )
            return
        if callback is not None or namespace not in self.rooms:
            await super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
            return
        async with self._fanout_lock:
            await self._emit(event, data, namespace, room, skip_sid, callback, **kwargs)

    async def emit_each(
        self,
        event: str,
        sends: list[tuple[Any, list[str]]],
        namespace: str = "/",
        read: Mapping[str, Any] | None = None,
        checked: Mapping[str, Any] | None = None,
    ) -> None:
        """
        Send `event` with each `(data, sids)` of `sends` to its sockets, as one fan-out. With
        `read`, every socket's read check is made before any is sent: a check that raises (a
        transient database error) leaves the event sent to nobody, to be sent again whole.
        """
        if self._fanout_lock is None:
            self._fanout_lock = asyncio.Lock()
        async with self._fanout_lock:
            if read is None:
                for data, sids in sends:
                    await self._emit(event, data, namespace, sids, None, None)
                return
            every = [sid for _, sids in sends for sid in sids]
            readers = dict(await self._readers(read, namespace, every, None, checked))
            for data, sids in sends:
                allowed = [(sid, readers[sid]) for sid in sids if sid in readers]
                if allowed:
                    await self._emit(event, data, namespace, None, None, None, readers=allowed)

    async def _readers(
        self,
        read: Mapping[str, Any],
        namespace: str,
        room: Any,
        skip_sid: Any,
        checked: Mapping[str, Any] | None,
    ) -> list[tuple[str, str]]:
        """
        The sockets of `room` whose user may read the event, as `(sid, eio_sid)`: nobody
        without a reader.
        """
        if namespace not in self.rooms or self.read_filter is None:
            return []
        skipped = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
        sids = {
            sid: eio for sid, eio in self.get_participants(namespace, room) if sid not in skipped
        }
        if not sids:
            return []
        return [(sid, sids[sid]) for sid in await self.read_filter(read, list(sids), checked)]

    async def _emit(
        self,
        event: str,
        data: Any,
        namespace: str,
        room: Any,
        skip_sid: Any,
        callback: Any,
        readers: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ) -> None:
        """
        Fan one encoded packet out to the room's sockets, or to `readers` (`(sid, eio_sid)`)
        when given (the fan-out lock held).
        """
        if readers is not None and (callback is not None or namespace not in self.rooms):
            room = [sid for sid, _ in readers]
        if callback is not None or namespace not in self.rooms:
            await super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
            return
        arguments = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(
            packet.EVENT, namespace=namespace, data=[event, *arguments]
        ).encode()
        if isinstance(encoded, list):
            # Binary attachments travel as several packets: python-socketio's own path.
            if readers is not None:
                room = [sid for sid, _ in readers]
            await super().emit(event, data, namespace, room, skip_sid, **kwargs)
            return
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        # Built once: the engine.io packet (cached by the packet) for the queues, and its
        # websocket frame for the connections written to directly.
        frame = uvicorn_frames.text_frame(message.encode().encode())
        if readers is not None:
            recipients = [eio_sid for _, eio_sid in readers]
        else:
            skipped = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
            recipients = [
                eio_sid
                for sid, eio_sid in self.get_participants(namespace, room)
                if sid not in skipped
            ]
        await self._fan_out(recipients, message, frame)
        telemetry.delivered(event, len(recipients))

    async def _fan_out(self, recipients: list[str], message: Any, frame: bytes) -> None:
        sockets = self.server.eio.sockets
        ping_timeout = self.server.eio.ping_timeout
        bound = getattr(self.server.eio, "outgoing_limit", None)
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
                queue = socket.queue
                if queue._writer_waiting and not queue._items:  # `queue.idle()`, inlined
                    # Nothing of this socket's waits to be sent: the frame goes to the wire now,
                    # unless its connection cannot take it as is (see `uvicorn_frames`).
                    direct = socket.__dict__.get("direct_writer") or _direct_writer(socket)
                    if direct.write(frame):
                        continue
                queue.put_nowait(message)
                if bound is not None:
                    # Queued: its client may have stopped reading (`outgoing`).
                    outgoing.check(socket, bound)


def _direct_writer(socket: Any) -> uvicorn_frames.DirectWriter:
    """The direct writer of an engine.io socket whose websocket writer waits (then kept)."""
    direct = uvicorn_frames.writer(socket.__dict__.get("websocket_send"))
    if direct is None:
        return uvicorn_frames.NOT_YET  # asked again at the next event
    socket.direct_writer = direct
    return direct


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

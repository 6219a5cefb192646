"""
One websocket frame, built once, written straight to each uvicorn connection's transport.

    frame = text_frame(payload)                # the bytes every recipient gets
    direct = writer(send)                      # or UNAVAILABLE, or None: not yet open
    if direct is not None and direct.write(frame):
        ...                                    # on the wire, in the order written

A server's frames to a client are not masked, so one event's text frame is the same bytes
for every connection that negotiated no extension. `writer(send)` takes the ASGI `send` a
websocket was given (the channel `engine.WebSocketGuard` wraps) and answers an object whose
`write(frame)` puts the frame on that connection's transport and says so, or says no when
uvicorn's own `send` must do it: the connection closing or closed, its transport's buffer
full (the writer then waits for it to drain, as uvicorn's `send` does), the guard closed.
`direct.buffered()` is what its transport holds, not yet taken by the kernel, and
`cut(send)` drops a connection with everything it holds (`outgoing` bounds both).

It knows uvicorn's three websocket protocols, and this package's (`uvicorn_ws`, derived from
the sans-I/O one): `websockets-sansio` (uvicorn 0.35 and later), `websockets` (websockets'
legacy protocol) and `wsproto`. Any other server, or a connection that negotiated
permessage-deflate (each frame then compressed with the connection's own context), gets no
writer, and its events keep the ASGI path. This is the only module that reads uvicorn's
protocols' attributes, each named in `ATTRIBUTES`; tests/server/socketio/test_uvicorn_frames.py
checks them against the installed uvicorn, websockets and wsproto, lowest and newest.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

from .engine import WebSocketGuard

__all__ = [
    "ATTRIBUTES",
    "HIGH_WATER",
    "NOT_YET",
    "UNAVAILABLE",
    "DirectWriter",
    "cut",
    "text_frame",
    "writer",
]

_SANSIO = "uvicorn.protocols.websockets.websockets_sansio_impl"
_LEGACY = "uvicorn.protocols.websockets.websockets_impl"
_WSPROTO = "uvicorn.protocols.websockets.wsproto_impl"

#: What each uvicorn protocol is read for: its connection's state, close and flow control.
ATTRIBUTES = {
    _SANSIO: ("handshake_complete", "close_sent", "initial_response", "writable", "conn"),
    _LEGACY: ("state", "closed_event", "initial_response", "extensions", "_paused"),
    _WSPROTO: ("handshake_complete", "close_sent", "response_started", "writable", "conn"),
}


#: The bytes a transport of a protocol that never pauses its writes may hold before frames
#: are queued instead (asyncio's and uvloop's default high-water mark).
HIGH_WATER = 64 * 1024


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked websocket text frame carrying `payload` (RFC 6455, 5.2)."""
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, length) + payload
    return struct.pack("!BBQ", 0x81, 127, length) + payload


class DirectWriter:
    """Writes frames to one connection's transport while its protocol would send them as is."""

    __slots__ = ("guard", "open", "protocol")

    def __init__(self, guard: WebSocketGuard, protocol: Any, open_state: Any) -> None:
        self.guard = guard
        self.protocol = protocol
        self.open = open_state

    def write(self, frame: bytes) -> bool:
        """Put `frame` on the wire, or False when the protocol's own `send` must do it."""
        raise NotImplementedError  # pragma: no cover - each protocol's writer says

    def buffered(self) -> int:
        """The bytes the connection's transport holds, not yet taken by the kernel."""
        transport = self.protocol.transport
        return 0 if transport is None else int(transport.get_write_buffer_size())


# Each writer checks, in one function (this runs for every recipient of every event), what
# its protocol's `send` checks before it writes a message, and that the transport can take
# more without waiting (else the socket's writer waits in `send`, its packets queued).


class _SansIOWriter(DirectWriter):
    __slots__ = ()

    def write(self, frame: bytes) -> bool:
        p = self.protocol
        if (
            self.guard.closed
            or p.close_sent
            or p.initial_response is not None
            or not p.writable.is_set()
            or p.conn.state is not self.open
            or p.transport.is_closing()
        ):
            return False
        p.transport.write(frame)
        return True


class _UnpausedSansIOWriter(DirectWriter):
    """The writer of a sans-I/O protocol that never pauses (uvicorn 0.35): it pauses here."""

    __slots__ = ()

    def write(self, frame: bytes) -> bool:
        p = self.protocol
        if (
            self.guard.closed
            or p.close_sent
            or p.initial_response is not None
            or p.conn.state is not self.open
            or p.transport.is_closing()
            or p.transport.get_write_buffer_size() > HIGH_WATER
        ):
            return False
        p.transport.write(frame)
        return True


class _LegacyWriter(DirectWriter):
    __slots__ = ()

    def write(self, frame: bytes) -> bool:
        p = self.protocol
        if (
            self.guard.closed
            or p.state is not self.open
            or p._paused
            or p.closed_event.is_set()
            or p.initial_response is not None
            or p.transport is None
            or p.transport.is_closing()
        ):
            return False
        p.transport.write(frame)
        return True


class _WsprotoWriter(DirectWriter):
    __slots__ = ()

    def write(self, frame: bytes) -> bool:
        p = self.protocol
        if (
            self.guard.closed
            or p.close_sent
            or p.response_started
            or not p.writable.is_set()
            or p.conn.connection.state is not self.open
            or p.transport.is_closing()
        ):
            return False
        p.transport.write(frame)
        return True


class _Unavailable(DirectWriter):
    """The writer of a connection only its protocol's own `send` writes to."""

    __slots__ = ()

    def __init__(self) -> None:
        pass

    def write(self, frame: bytes) -> bool:
        return False

    def buffered(self) -> int:
        return 0


#: For a connection never written to directly (another server, an extension negotiated).
UNAVAILABLE: DirectWriter = _Unavailable()
#: For a connection whose handshake is not yet complete: ask `writer()` again later.
NOT_YET: DirectWriter = _Unavailable()


def _kind(protocol: Any) -> str | None:
    for cls in type(protocol).__mro__:
        if cls.__module__ in ATTRIBUTES:
            return cls.__module__
    return None


def writer(send: Any) -> DirectWriter | None:
    """
    The direct writer of the websocket whose ASGI `send` (wrapped by `engine.guard_websocket`)
    is `send`: `UNAVAILABLE` for any other server or when an extension was negotiated; None
    while its handshake is not complete.
    """
    guard = getattr(send, "__self__", None)
    if not isinstance(guard, WebSocketGuard):
        return UNAVAILABLE
    protocol: Any = getattr(guard.channel, "__self__", None)
    kind = _kind(protocol)
    if kind is None or not all(hasattr(protocol, name) for name in ATTRIBUTES[kind]):
        return UNAVAILABLE
    if kind == _LEGACY:
        if getattr(protocol.state, "name", None) != "OPEN":
            return None
        if protocol.extensions:
            return UNAVAILABLE
        return _LegacyWriter(guard, protocol, protocol.state)
    if not protocol.handshake_complete:
        return None
    if kind == _SANSIO:
        connection = protocol.conn
        if connection.state.name != "OPEN":
            return None
        if getattr(connection, "extensions", True):
            return UNAVAILABLE
        if not _pauses(protocol):
            return _UnpausedSansIOWriter(guard, protocol, connection.state)
        return _SansIOWriter(guard, protocol, connection.state)
    connection = getattr(protocol.conn, "connection", None)
    if connection is None or connection.state.name != "OPEN":
        return None
    extensions = getattr(getattr(connection, "_proto", None), "extensions", None)
    if extensions is None or any(extension.enabled() for extension in extensions):
        return UNAVAILABLE
    return _WsprotoWriter(guard, protocol, connection.state)


def _pauses(protocol: Any) -> bool:
    """Whether `protocol` pauses its writes on a full transport (asyncio's flow control)."""
    return type(protocol).pause_writing is not asyncio.BaseProtocol.pause_writing


def cut(send: Any) -> None:
    """
    Drop the websocket whose ASGI `send` (wrapped by `engine.guard_websocket`) is `send`, and
    what its transport holds: nothing more is sent through it, its uvicorn transport is
    aborted (the server then sees the client leave), and a `send` waiting for that transport
    to drain returns. A connection of another server is only closed to the application.
    """
    guard = getattr(send, "__self__", None)
    if not isinstance(guard, WebSocketGuard):
        return
    guard.closed = True
    protocol: Any = getattr(guard.channel, "__self__", None)
    if _kind(protocol) is None:
        return
    transport = getattr(protocol, "transport", None)
    if transport is not None:
        transport.abort()
    # asyncio does not resume the writes of a transport lost while paused, and the wsproto
    # and sans-I/O protocols of older uvicorns (0.35 among them) then wait for ever
    # (websockets' legacy protocol wakes its own waiter).
    writable = getattr(protocol, "writable", None)
    if writable is not None:
        writable.set()

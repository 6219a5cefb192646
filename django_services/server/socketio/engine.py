"""
Engine.IO frames checked before python-engineio reads them, and the limits it is given.

    receive, send = guard_websocket(receive, send)          # a websocket's frames
    receive = await guard_polling_post(sio, receive, send, sid)   # a polling POST
    await bounded_poll(sio, sid, seconds, handle)           # a polling GET
    await close_session(sio, sid)                           # closed now, not once polled

python-engineio logs a traceback and keeps the session for an Engine.IO packet it cannot read
(an empty frame, an unknown packet type, invalid UTF-8 in a polling body, bad base64), lets a
client ping as often as it likes (engine.io's server pings, and refuses a client's ping but
an upgrade's probe), and it holds a polling POST over its size limit forever (closing the
session waits for a poll that may never come), which also keeps the server from stopping.
Its `disconnect()` waits for a poll alike, forever for a client between two polls:
`close_session()` closes a session without waiting.
engine.io closes the transport on the first such packet: so does this module, before
python-engineio sees it, answering a bad polling POST 400 (413 over the size limit) and
closing a websocket with 1002.

A websocket text frame that is not UTF-8 is closed with 1007 by uvicorn's protocols, and its
sans-I/O one (`--ws websockets-sansio`, uvicorn's choice when websockets is installed) logs a
traceback for each: `quiet_invalid_utf_8()` logs one warning line instead.

A long-poll is answered with a noop packet after `seconds` without anything to send (engine.io
clients then poll again): a server that is stopping waits for the requests in progress, and
python-engineio would hold a poll until the next ping, 25 s by default.

This is the one place that reaches into python-engineio's internals (its sessions, and its
payload decoder's class attribute), and into uvicorn's log of a frame not UTF-8, each use
saying why.
"""

from __future__ import annotations

import binascii
import logging
from base64 import b64decode
from collections.abc import Awaitable, Callable
from typing import Any

from engineio import packet
from engineio.payload import Payload

from ... import clock

__all__ = [
    "PACKET_LIMIT",
    "WebSocketGuard",
    "bounded_poll",
    "close_session",
    "guard_polling_post",
    "guard_websocket",
    "quiet_invalid_utf_8",
]

logger = logging.getLogger("django_services.server")

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

#: The packets one polling POST may carry. engine.io bounds a payload by its size only;
#: python-engineio also caps the count at 16 and silently drops a POST over it, losing the
#: calls of a busy client. Its maintainer's way of raising the cap is this class attribute.
PACKET_LIMIT = 1_000_000
Payload.max_decode_packets = PACKET_LIMIT

#: The packet types python-engineio accepts from a client: close, pong, message, upgrade;
#: over a websocket also the upgrade's ping probe (a websocket ignores other types, which a
#: polling POST would turn into a session closed while waiting on a poll).
_WEBSOCKET_TYPES = frozenset("12345")
_POLLING_TYPES = frozenset("1345")

#: Close code of a websocket that broke the protocol.
_PROTOCOL_ERROR = 1002


def _valid_packet(text: str, types: frozenset[str]) -> bool:
    if not text:
        return False
    if text[0] == "b":
        try:
            b64decode(text[1:], validate=True)
        except (binascii.Error, ValueError):
            return False
        return True
    if text[0] == "2":
        # A client pings only to probe a websocket upgrade; engine.io closes the transport on
        # any other ping ("invalid heartbeat direction"), a ping storm included.
        return "2" in types and text == "2probe"
    return text[0] in types


class WebSocketGuard:
    """
    The ASGI channels of one websocket, its first bad text frame closing it: the application
    then sees the client leave, and nothing more is sent. `channel` is the server's own
    `send` (what `uvicorn_frames` writes past, as long as `closed` is false).
    """

    __slots__ = ("channel", "closed", "incoming")

    def __init__(self, receive: Receive, send: Send) -> None:
        self.incoming = receive
        self.channel = send
        self.closed = False

    async def receive(self) -> dict[str, Any]:
        message = await self.incoming()
        if message["type"] == "websocket.receive" and not self.closed:
            text = message.get("text")
            if text is not None and not _valid_packet(text, _WEBSOCKET_TYPES):
                self.closed = True
                await self.channel({"type": "websocket.close", "code": _PROTOCOL_ERROR})
                return {"type": "websocket.disconnect", "code": _PROTOCOL_ERROR}
        return message

    async def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            await self.channel(message)


def guard_websocket(receive: Receive, send: Send) -> tuple[Receive, Send]:
    """
    The ASGI channels of a websocket whose first bad text frame closes it: the application
    then sees the client leave, and nothing more is sent.
    """
    guard = WebSocketGuard(receive, send)
    return guard.receive, guard.send


async def guard_polling_post(sio: Any, receive: Receive, send: Send, sid: str) -> Receive | None:
    """
    Read a polling POST of session `sid` and check its packets: the channel to hand on to
    python-engineio (replaying the body), or None when the POST was answered here (a body
    over `max_http_buffer_size`, or packets engine.io would not read) and the session closed.
    """
    limit = sio.eio.max_http_buffer_size
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body") or b""
        if len(body) > limit:
            await _refuse(sio, send, sid, 413, b"Payload Too Large")
            return None
        if not message.get("more_body"):
            break
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or (
        text and not all(_valid_packet(p, _POLLING_TYPES) for p in text.split("\x1e"))
    ):
        await _refuse(sio, send, sid, 400, b"Bad Request")
        return None
    replayed = False

    async def replay() -> dict[str, Any]:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}
        return await receive()

    return replay


async def _refuse(sio: Any, send: Send, sid: str, status: int, reason: bytes) -> None:
    """Answer a polling POST `status` and close its session without waiting for a poll."""
    await close_session(sio, sid)
    headers = [(b"content-type", b"text/plain"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": reason})


async def close_session(sio: Any, sid: str) -> None:
    """
    Close engine.io session `sid` as python-engineio's `disconnect()` does, but at once: a
    poll waiting takes its close packet, and the next request finds no session.
    """
    # python-engineio's disconnect() marks the session closed, then waits until a poll takes
    # the close packet; but it refuses the polls of a closed session, so that the close packet
    # of a client between two polls (it has just been answered) is never taken, and neither
    # the wait nor the request that closed the session (a POST whose packet broke socket.io's
    # protocol) ever ends.
    session = sio.eio.sockets.get(sid)
    if session is not None and not session.closed:
        await session.close(wait=False, reason=sio.eio.reason.SERVER_DISCONNECT)
    sio.eio.sockets.pop(sid, None)


async def bounded_poll(
    sio: Any, sid: str, seconds: float, handle: Callable[[], Awaitable[None]]
) -> None:
    """Run `handle()` (a polling GET of session `sid`), answered within about `seconds`."""
    session = sio.eio.sockets.get(sid)
    if session is None:
        await handle()
        return

    def end_poll() -> None:
        # python-engineio's session queue is what a poll waits on; a noop ends the wait.
        if session.queue.empty() and not session.closed:
            session.queue.put_nowait(packet.Packet(packet.NOOP))

    timer = clock.alarm(clock.time() + seconds, end_poll)
    try:
        await handle()
    finally:
        timer.cancel()


#: What uvicorn's sans-I/O websocket protocol logs, with a traceback, for a text frame that is
#: not UTF-8, just before it closes the connection with 1007.
_INVALID_UTF_8 = "Invalid UTF-8 sequence received from client."


class _InvalidUtf8(logging.Filter):
    """Replaces uvicorn's record of a text frame not UTF-8 with a warning line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != _INVALID_UTF_8:
            return True
        logger.warning("Closing a websocket that sent a text frame that is not UTF-8 (1007)")
        return False


def quiet_invalid_utf_8() -> None:
    """Log a websocket text frame not UTF-8 as one warning line, not uvicorn's traceback."""
    # uvicorn's logging configuration keeps a logger's filters, before or after this.
    uvicorn_logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(item, _InvalidUtf8) for item in uvicorn_logger.filters):
        uvicorn_logger.addFilter(_InvalidUtf8())

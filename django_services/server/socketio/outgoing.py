"""
The bound on what waits to be sent to one socket.io connection: a client that stops reading
is cut off before it holds the server's memory.

    DJANGO_SERVICES = {"SOCKETIO_OUTGOING_LIMIT": 4 * 1024 * 1024}    # bytes, the default

A connection's outgoing bytes are the packets waiting in its engine.io queue
(`SocketQueue.nbytes`) and, for a websocket written to directly (`uvicorn_frames`), what its
transport holds that the kernel has not taken. A client that reads nothing, or a long-polling
client that stops polling, while events keep coming goes over the limit. Its connection is
then cut: its websocket's transport aborted with what it holds, its packets dropped, and its
engine.io session closed as a lost connection ("transport error"), logged once at WARNING.
Its client reconnects, and with connection state recovery (`recovery`) is sent what it
missed from the event log.

The fan-out checks the bound for each socket it queues an event for (`check`); `install()`
makes engine.io's sockets check it for every other packet they are sent (python-socketio's
own path: acks, binary attachments, emits with a callback). A websocket's writer takes its
packets one at a time (`engine_queues`), so that a connection holds at most the limit, the
packet its writer is sending, and the largest event written to it directly.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engineio import async_socket

from ...conf import services_settings
from . import uvicorn_frames

__all__ = ["DEFAULT_LIMIT", "check", "install", "limit", "outgoing"]

logger = logging.getLogger("django_services.server")

#: `SOCKETIO_OUTGOING_LIMIT`'s default: 4 MiB.
DEFAULT_LIMIT = 4 * 1024 * 1024

#: The closes of the connections cut off, until they are done.
_closing: set[asyncio.Future[Any]] = set()


def limit() -> int:
    """`DJANGO_SERVICES["SOCKETIO_OUTGOING_LIMIT"]`: the bytes one connection may hold."""
    return int(services_settings.SOCKETIO_OUTGOING_LIMIT)


def outgoing(socket: Any) -> int:
    """The bytes waiting to be sent to engine.io socket `socket`: its queue's and transport's."""
    size = int(getattr(socket.queue, "nbytes", 0))
    direct = socket.__dict__.get("direct_writer")
    if direct is not None:
        size += direct.buffered()
    return size


def check(socket: Any, limit: int) -> bool:
    """Cut `socket` off if more than `limit` bytes wait to be sent to it: whether it was."""
    size = outgoing(socket)
    if size <= limit:
        return False
    _cut(socket, size, limit)
    return True


def _cut(socket: Any, size: int, limit: int) -> None:
    if socket.closing or socket.closed or "cut_off" in socket.__dict__:
        return
    socket.cut_off = True
    logger.warning(
        "Closing the socket.io connection %s: %d bytes wait to be sent to it, over "
        "SOCKETIO_OUTGOING_LIMIT (%d); its client reads too slowly or stopped reading",
        socket.sid,
        size,
        limit,
    )
    uvicorn_frames.cut(socket.__dict__.get("websocket_send"))
    drop = getattr(socket.queue, "drop", None)
    if drop is not None:
        drop()
    # A lost connection's reason: its session is kept for the client's reconnect.
    reason = socket.server.reason.TRANSPORT_ERROR
    closing = asyncio.ensure_future(socket.close(wait=False, abort=True, reason=reason))
    _closing.add(closing)
    closing.add_done_callback(_closing.discard)


_ENGINEIO_SEND = async_socket.AsyncSocket.send


async def _send(self: Any, pkt: Any) -> None:
    """engine.io's `AsyncSocket.send`, then the bound of its server checked."""
    await _ENGINEIO_SEND(self, pkt)
    bound = getattr(self.server, "outgoing_limit", None)
    if bound is not None and not self.closed:
        check(self, bound)


def install(eio: Any, bound: int) -> None:
    """Bound what waits for each socket of engine.io server `eio` to `bound` bytes."""
    eio.outgoing_limit = bound
    if async_socket.AsyncSocket.send is _ENGINEIO_SEND:
        async_socket.AsyncSocket.send = _send

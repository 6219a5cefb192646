"""
uvicorn's sans-I/O websockets protocol, holding each connection in less memory.

    uvicorn myproject.asgi:application \
        --ws django_services.server.socketio.uvicorn_ws:WebSocketProtocol

or `uvicorn.run(application, ws=WebSocketProtocol)` (uvicorn 0.35 to 0.37 take only their own
names for `--ws` on the command line). Needs uvicorn 0.35 or later with `websockets`
installed (`uvicorn[standard]`).

A socket.io server holds many idle connections, and uvicorn's `WebSocketsSansIOProtocol`
keeps, for each one's whole life, state that only its first moments need:

- the handshake's request and response (`request`, `response`, with their headers: 5 to 6
  KiB, a sixth of a connection), let go of at the application's first `receive()` after it
  accepted the connection (the request's headers emptied, since websockets' parser holds on
  to the request itself);
- an `asyncio.Queue` for the application's incoming messages, four deques of 600 bytes or
  more each where `engine_queues.SocketQueue` keeps two lists;
- an `asyncio.Event` telling `send()` the transport can take more, a deque of its own where
  `Writable` keeps a flag and makes its list of waiters only when one waits.

Nothing else changes: the messages, their order and the back-pressure are uvicorn's own.
With `uvicorn_frames` (which reads the state of uvicorn's websocket connections to write
events to them directly), this is the only module that reaches into uvicorn's protocol (the
attributes above, and its `receive()`, reimplemented here as every uvicorn version from 0.35
writes it); tests/server/socketio/test_uvicorn_ws.py checks them against the installed uvicorn.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .engine_queues import SocketQueue

__all__ = ["WebSocketProtocol", "Writable"]


class Writable:
    """The part of `asyncio.Event` uvicorn's protocol uses, its waiters made only when needed."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        if self._set:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
        return True


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` that lets go of what a connection no longer needs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue: Any = SocketQueue()
        self.writable: Any = Writable()

    async def receive(self) -> Any:
        """The application's next message (uvicorn's `receive`)."""
        if self.handshake_complete and self.__dict__.get("response") is not None:
            self._release_handshake()
        message = await self.queue.get()
        if self.read_paused and self.queue.empty():
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def _release_handshake(self) -> None:
        # Accepted (or refused): the handshake's request and response are spent. websockets'
        # parser keeps the request as a local of its generator for the connection's life, so
        # its headers are emptied in place.
        self.request.headers.clear()
        self.request = self.response = None  # type: ignore[assignment,unused-ignore]

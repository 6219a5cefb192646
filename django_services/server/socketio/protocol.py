"""
Refusals that socket.io and Engine.IO make themselves, answered as the JavaScript servers
answer them (python-socketio and python-engineio word them differently):

* a handshake of another Engine.IO protocol than 4 (`EIO=3`, or none): 400
  `{"code": 5, "message": "Unsupported protocol version"}`, as JSON;
* a CONNECT to a namespace other than `/`: CONNECT_ERROR `{"message": "Invalid namespace"}`
  (see `refuse_namespace`);
* a packet that cannot be decoded (not JSON, nested too deep, an unknown packet type, an
  event that is not a list starting with its name): the connection is closed, socket.io's
  "parse error" (see `FeathersPacket` and `close_on_parse_errors`);
* a client's own close packet: a long-poll the server holds for that client is answered at
  once, so that its request and connection end with the session (see `end_polls_on_close`).
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qs

import socketio
from socketio import packet

__all__ = [
    "FeathersPacket",
    "SocketIOApp",
    "close_on_parse_errors",
    "end_polls_on_close",
    "refuse_namespace",
]

logger = logging.getLogger("django_services.server")

UNSUPPORTED_PROTOCOL = json.dumps({"code": 5, "message": "Unsupported protocol version"}).encode()


class SocketIOApp(socketio.ASGIApp):
    """python-socketio's ASGI application, refusing other Engine.IO protocols as engine.io does."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self._is_old_handshake(scope):
            await _refuse_protocol(scope, send)
            return
        await super().__call__(scope, receive, send)

    def _is_old_handshake(self, scope: dict[str, Any]) -> bool:
        path = scope["path"] if scope["path"].endswith("/") else scope["path"] + "/"
        if self.engineio_path is None or not path.startswith(self.engineio_path):
            return False
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        # Requests of an open session (`sid`) were checked at its handshake.
        return "sid" not in query and query.get("EIO") != ["4"]


async def _refuse_protocol(scope: dict[str, Any], send: Any) -> None:
    headers = [(b"content-type", b"application/json")]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": UNSUPPORTED_PROTOCOL})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": UNSUPPORTED_PROTOCOL})
    else:
        await send({"type": "websocket.close"})


async def refuse_namespace(namespace: str, *args: Any) -> None:
    """The `connect` handler of every namespace but `/`: socket.io's `Invalid namespace`."""
    raise socketio.exceptions.ConnectionRefusedError("Invalid namespace")


def close_on_parse_errors(sio: socketio.AsyncServer) -> None:
    """Make a packet socket.io cannot decode close its connection, as socket.io does."""
    handle = sio.eio.handlers["message"]

    async def on_message(eio_sid: str, data: Any) -> None:
        # python-socketio raises these for a packet it cannot decode, and left alone
        # python-engineio would log a traceback for each and keep the connection.
        try:
            await handle(eio_sid, data)
        except (ValueError, RecursionError) as exc:
            logger.warning("Closing a socket that sent a packet socket.io cannot decode: %r", exc)
            await sio.eio.disconnect(eio_sid)

    sio.eio.on("message", on_message)


def end_polls_on_close(sio: socketio.AsyncServer) -> None:
    """
    Answer the waiting long-poll of a client that closes its session, as engine.io does.

    python-engineio closes the session on the client's close packet but leaves a waiting
    long-poll until the ping timeout (45 s by default): the request, its connection and the
    client's agent would stay busy all that time.
    """
    handle = sio.eio.handlers["disconnect"]

    async def on_disconnect(eio_sid: str, reason: Any = None, *args: Any) -> None:
        await handle(eio_sid, reason, *args)
        if reason != sio.eio.reason.CLIENT_DISCONNECT:
            return
        session = sio.eio.sockets.get(eio_sid)
        if session is not None:
            # An empty answer for a waiting poll; a websocket's writer stops on it too.
            session.queue.put_nowait(None)

    sio.eio.on("disconnect", on_disconnect)


class FeathersPacket(packet.Packet):
    """python-socketio's JSON packet, refusing the events socket.io's decoder refuses."""

    def decode(self, encoded_packet: str) -> int:
        attachments: int = super().decode(encoded_packet)
        if self.packet_type in (packet.EVENT, packet.BINARY_EVENT):
            data = self.data
            if not (
                isinstance(data, list)
                and data
                and isinstance(data[0], (str, int, float))
                and not isinstance(data[0], bool)
            ):
                raise ValueError("invalid payload")
        return attachments

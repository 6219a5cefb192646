"""
Refusals that socket.io and Engine.IO make themselves, answered as the JavaScript servers
answer them (python-socketio and python-engineio word them differently):

* a handshake of another Engine.IO protocol than 4 (`EIO=3`, or none): 400
  `{"code": 5, "message": "Unsupported protocol version"}`, as JSON;
* a CONNECT to a namespace other than `/`: CONNECT_ERROR `{"message": "Invalid namespace"}`
  (see `refuse_namespace`);
* a packet that cannot be decoded (empty, not JSON, nested too deep, an unknown packet type,
  an event that is not a list starting with its name, an acknowledgement that is not a list,
  a binary frame no packet announced, a text frame where an attachment is due): the
  connection is closed, socket.io's "parse error", with one warning logged (see
  `FeathersPacket` and `close_on_parse_errors`);
* a packet socket.io's server refuses in the connection's state (a CONNECT to a namespace it
  is in, an event or acknowledgement for one it is not in): closed alike, where
  python-socketio answers a CONNECT_ERROR or logs a warning for each (see `ignored`);
* an acknowledgement no emit waits for: dropped without a word, as socket.io drops it, where
  python-socketio logs a warning for each;
* a client's own close packet: a long-poll the server holds for that client is answered at
  once, so that its request and connection end with the session (see `end_polls_on_close`).

And one thing python-engineio keeps that no one reads: the body reader of a session's
handshake request (see `drop_handshake_body`).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import parse_qs

import socketio
from socketio import packet

from .engine import bounded_poll, close_session, guard_polling_post, guard_websocket

__all__ = [
    "FeathersPacket",
    "SocketIOApp",
    "close_on_parse_errors",
    "drop_handshake_body",
    "end_polls_on_close",
    "ignored",
    "refuse_namespace",
]

logger = logging.getLogger("django_services.server")

#: The count of attachments that may follow a packet's type: `451-...`.
_ATTACHMENTS = re.compile(r"\d+-")

UNSUPPORTED_PROTOCOL = json.dumps({"code": 5, "message": "Unsupported protocol version"}).encode()


class SocketIOApp(socketio.ASGIApp):
    """python-socketio's ASGI application, refusing other Engine.IO protocols as engine.io does."""

    #: The seconds a long-poll waits at most for something to send (see `engine.bounded_poll`).
    longest_poll: float = 5.0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        query = self._engine_query(scope)
        if query is not None:
            # Requests of an open session (`sid`) were checked at its handshake.
            if "sid" not in query and query.get("EIO") != ["4"]:
                await _refuse_protocol(scope, send)
                return
            sid = query.get("sid", [""])[0]
            if scope["type"] == "websocket":
                receive, send = guard_websocket(receive, send)
            elif sid in self.sio.eio.sockets and scope.get("method") == "GET":
                handle = super().__call__
                await bounded_poll(
                    self.sio, sid, self.longest_poll, lambda: handle(scope, receive, send)
                )
                return
            elif sid in self.sio.eio.sockets and scope.get("method") == "POST":
                checked = await guard_polling_post(self.sio, receive, send, sid)
                if checked is None:
                    return
                receive = checked
        await super().__call__(scope, receive, send)

    @property
    def sio(self) -> Any:
        """The python-socketio server."""
        return self.engineio_server

    def _engine_query(self, scope: dict[str, Any]) -> dict[str, list[str]] | None:
        """The query of a request to Engine.IO's path, or None for any other scope."""
        if scope["type"] not in ("http", "websocket") or self.engineio_path is None:
            return None
        path = scope["path"] if scope["path"].endswith("/") else scope["path"] + "/"
        if not path.startswith(self.engineio_path):
            return None
        return parse_qs(scope.get("query_string", b"").decode("latin-1"))


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
    """
    Make a packet socket.io cannot decode close its connection, as socket.io does, and drop
    the packets it drops without a word (see `ignored`).

    A connection closed for a bad packet logs one warning, whatever follows it: the packets
    still arriving for a closing session are dropped unread.
    """
    handle = sio.eio.handlers["message"]

    async def on_message(eio_sid: str, data: Any) -> None:
        session = sio.eio.sockets.get(eio_sid)
        if session is None or session.closing or session.closed:
            return
        try:
            if not data:
                # python-socketio reads an empty message as an event without arguments.
                raise ValueError("empty packet")
            if isinstance(data, str) and ignored(sio, eio_sid, data):
                return
            await handle(eio_sid, data)
        except (ValueError, RecursionError) as exc:
            # python-socketio raises these for a packet it cannot decode, and left alone
            # python-engineio would log a traceback for each and keep the connection.
            if session.closing or session.closed:
                return
            logger.warning("Closing a socket that broke socket.io's protocol: %r", exc)
            # Not python-engineio's disconnect(), which waits for a poll that may never come,
            # holding this request (a polling POST) until then.
            await close_session(sio, eio_sid)

    sio.eio.on("message", on_message)


def ignored(sio: socketio.AsyncServer, eio_sid: str, data: str) -> bool:
    """
    Whether socket.io drops this text packet of connection `eio_sid` unread (an
    acknowledgement no emit waits for, of which python-socketio logs each); ValueError for
    one socket.io closes the connection on, where python-socketio logs a warning or answers:
    a CONNECT to a namespace the connection is in, an event or an acknowledgement for one it
    is not in (after its DISCONNECT, say), a binary acknowledgement no emit waits for.
    """
    kind = data[0]
    if kind not in "0236":
        return False
    manager = sio.manager
    namespace = _namespace(data)
    sid = manager.sid_from_eio_sid(eio_sid, namespace)
    if kind == "0":
        # One connecting or leaving is python-socketio's to answer (a CONNECT_ERROR).
        if sid is not None and manager.is_connected(sid, namespace):
            raise ValueError("invalid state: already connected")
        return False
    if sid is None or not manager.is_connected(sid, namespace):
        raise ValueError("invalid state: not connected")
    if kind == "2":
        return False
    # Acknowledgements are rare (the server asks for none of its own): decoded twice.
    ack = sio.packet_class(encoded_packet=data)
    if ack.id in manager.callbacks.get(sid, {}):
        return False
    if kind == "6":
        raise ValueError("unexpected binary acknowledgement")
    return True


def _namespace(data: str) -> str:
    """The namespace of a socket.io packet, read as python-socketio's decoder reads it."""
    # Read in place: a packet may be a megabyte long.
    attachments = _ATTACHMENTS.match(data, 1)
    start = attachments.end() if attachments else 1
    if not data.startswith("/", start):
        return "/"
    end = data.find(",", start)
    return (data[start:] if end == -1 else data[start:end]).split("?", 1)[0]


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


def drop_handshake_body(sio: socketio.AsyncServer) -> None:
    """
    Forget the body reader of each session's handshake request once the session opens.

    python-socketio keeps the handshake's environ for the session's life (`get_environ`).
    Its `wsgi.input` is an instance of a class python-engineio defines anew for every request
    (1.5 to 2.5 KiB with its methods), and a handshake has no body to read.
    """
    handle = sio.eio.handlers["connect"]

    async def on_connect(eio_sid: str, environ: dict[str, Any], *args: Any) -> Any:
        environ.pop("wsgi.input", None)
        return await handle(eio_sid, environ, *args)

    sio.eio.on("connect", on_connect)


class FeathersPacket(packet.Packet):
    """python-socketio's JSON packet, refusing the events socket.io's decoder refuses."""

    #: The attachments one packet may announce (socket.io's parser accepts at most 10), and
    #: the bytes they may hold together, checked as each arrives: Feathers sends no binary
    #: data (it is refused once whole), so nothing more is buffered for it.
    max_attachments = 10
    max_attachment_bytes = 1_000_000

    def decode(self, encoded_packet: str) -> int:
        if not isinstance(encoded_packet, str):
            # A binary frame is an attachment, and no packet announced one.
            raise ValueError("binary data when not reconstructing a packet")
        attachments: int = super().decode(encoded_packet)
        if attachments > self.max_attachments:
            raise ValueError("too many attachments")
        if not _valid_payload(self.packet_type, self.data):
            raise ValueError("invalid payload")
        return attachments

    def add_attachment(self, attachment: bytes) -> bool:
        if not isinstance(attachment, bytes):
            raise ValueError("plaintext data when reconstructing a packet")
        received = sum(len(item) for item in self.attachments) + len(attachment)
        if received > self.max_attachment_bytes:
            raise ValueError("attachments too large")
        try:
            # The last attachment puts them in place of their placeholders; one that names no
            # attachment (out of range, not a number) fails there. Caught here rather than in
            # `reconstruct_binary`, whose signature python-socketio changed in 5.13.
            complete: bool = super().add_attachment(attachment)
        except (IndexError, KeyError, TypeError) as exc:
            raise ValueError("invalid attachment placeholder") from exc
        return complete


def _valid_payload(packet_type: Any, data: Any) -> bool:
    """Whether socket.io's decoder accepts `data` as the payload of a packet of this type."""
    if packet_type == packet.CONNECT:
        return data is None or isinstance(data, dict)
    if packet_type == packet.DISCONNECT:
        return data is None
    if packet_type in (packet.ACK, packet.BINARY_ACK):
        return isinstance(data, list)
    if packet_type in (packet.EVENT, packet.BINARY_EVENT):
        return (
            isinstance(data, list)
            and bool(data)
            and isinstance(data[0], (str, int, float))
            and not isinstance(data[0], bool)
        )
    return True

"""
A small HTTP/1.1 server on loopback that records requests exactly as they arrive and answers
with scripted replies, for the client's wire-format and fault tests.

    wire.reply(Reply(503, {"name": "Unavailable"}, headers={"Retry-After": "0"}), Reply(200, []))
    ...
    wire.requests[0].target     # "/todos?%24limit=10", byte for byte as sent
"""

from __future__ import annotations

import json
import sys
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

from tests.servers import HttpPeer


@dataclass
class Recorded:
    """One request as the server received it."""

    method: str
    target: str
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> str:
        return urlsplit(self.target).query

    def header(self, name: str) -> str | None:
        """The value of header `name` (case-insensitive); fails if it was sent twice."""
        values = [value for key, value in self.headers if key.lower() == name.lower()]
        assert len(values) <= 1, f"{name} was sent {len(values)} times: {values}"
        return values[0] if values else None

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    """A scripted answer: `body` is sent as JSON unless it is bytes."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    reason: str | None = None
    delay: float = 0.0
    #: Close the connection without answering.
    drop: bool = False


class WireServer(HttpPeer):
    """Records each request and answers it with the next scripted reply."""

    name = "wire"

    def __init__(self) -> None:
        self.handler = _Handler
        super().__init__()
        self.requests: list[Recorded] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (a timeout test) closes its end while a reply is written.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._replies.clear()

    def reply(self, *replies: Reply) -> None:
        """Queue replies, used in order; once they run out, requests get the default echo."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def last(self) -> Recorded:
        assert self.requests, "no request reached the server"
        return self.requests[-1]

    def _next(self, recorded: Recorded) -> Reply:
        with self._lock:
            self.requests.append(recorded)
            if self._replies:
                return self._replies.popleft()
        return Reply(200, {"method": recorded.method, "target": recorded.target})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _handle(self) -> None:
        wire: WireServer = self.server.peer  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        assert "chunked" not in (self.headers.get("Transfer-Encoding") or "")
        body = self.rfile.read(length) if length else b""
        reply = wire._next(Recorded(self.command, self.path, list(self.headers.items()), body))
        if reply.delay:
            wire._stopping.wait(reply.delay)
        if reply.drop:
            self.close_connection = True
            return
        if isinstance(reply.body, bytes):
            content = reply.body
            content_type = "text/plain"
        elif reply.body is None and reply.status == 204:
            content, content_type = b"", ""
        else:
            content = json.dumps(reply.body).encode()
            content_type = "application/json; charset=utf-8"
        self.send_response(reply.status, reply.reason)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if reply.status != 204:
            self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        if self.command != "HEAD" and reply.status != 204:
            self.wfile.write(content)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _handle

    def log_message(self, format: str, *args: Any) -> None:
        pass

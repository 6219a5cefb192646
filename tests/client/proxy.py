"""
A TCP proxy on loopback that the tests control: it drops connections, refuses new ones (the
server is down), holds the server's answers, and records what the client sent.

    proxy = Proxy(server_url).start()
    app = App().configure(socketio_client(proxy.url))
    proxy.hold()        # the server's bytes wait in the proxy
    proxy.release()     # ... and go on
    proxy.down()        # every connection drops, new ones are refused
    proxy.up()          # the server is back, on the same address
    proxy.stop()
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any
from urllib.parse import urlsplit

from tests.waiting import eventually, eventually_async

__all__ = ["Proxy"]


class _Pair:
    """One client connection and its connection to the server."""

    def __init__(self, proxy: Proxy, client: socket.socket, upstream: socket.socket) -> None:
        self.proxy = proxy
        self.client = client
        self.upstream = upstream
        self.closed = False

    def start(self) -> None:
        for source, target, answers in (
            (self.client, self.upstream, False),
            (self.upstream, self.client, True),
        ):
            threading.Thread(target=self._pump, args=(source, target, answers), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, answers: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if answers:
                    self.proxy._flowing.wait()
                else:
                    self.proxy._record(data)
                if self.closed:
                    break
                target.sendall(data)
        except OSError:
            pass
        self.close()

    def close(self) -> None:
        self.closed = True
        for sock in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()
        self.proxy._forget(self)


class Proxy:
    """Forwards a loopback port to `upstream_url`'s host and port."""

    def __init__(self, upstream_url: str) -> None:
        parts = urlsplit(upstream_url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self._pairs: set[_Pair] = set()
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self._refusing = self._stopping = False
        self._sent = bytearray()
        self._sent_changed = threading.Condition(self._lock)
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def start(self) -> Proxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._refusing = self._stopping = True
        self._flowing.set()
        # Closing a listening socket does not wake a thread blocked in accept(): a connection does.
        with contextlib.suppress(OSError), socket.create_connection(self.listener.getsockname()):
            pass
        self._thread.join(5)
        with contextlib.suppress(OSError):
            self.listener.close()
        self.drop()

    def drop(self) -> None:
        """Close every connection open now, on both sides."""
        with self._lock:
            pairs = list(self._pairs)
        for pair in pairs:
            pair.close()

    def down(self) -> None:
        """The server goes away: open connections drop, new ones are closed at once."""
        self._refusing = True
        self.drop()

    def up(self, upstream_url: str | None = None) -> None:
        """The server is back (at `upstream_url`, a restarted server, when given)."""
        if upstream_url is not None:
            parts = urlsplit(upstream_url)
            self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._refusing = False

    def hold(self) -> None:
        """Hold the server's bytes in the proxy until `release()`."""
        self._flowing.clear()

    def release(self) -> None:
        self._flowing.set()

    @property
    def connections(self) -> int:
        with self._lock:
            return len(self._pairs)

    def wait_for_sent(self, marker: bytes = b"", timeout: float = 10.0) -> None:
        """
        Wait until the client has sent `marker` (since the last `forget_sent()`); with no marker,
        anything (a websocket client masks its frames: their text can not be read here).
        """
        with self._sent_changed:
            if not self._sent_changed.wait_for(
                lambda: self._sent and marker in self._sent, timeout
            ):
                raise AssertionError(
                    f"the client did not send {marker!r}: {bytes(self._sent[-300:])!r}"
                )

    def forget_sent(self) -> None:
        with self._lock:
            self._sent.clear()

    def _record(self, data: bytes) -> None:
        with self._sent_changed:
            self._sent += data
            self._sent_changed.notify_all()

    def _forget(self, pair: _Pair) -> None:
        with self._lock:
            self._pairs.discard(pair)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self._stopping:
                client.close()
                return
            if self._refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.upstream, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            pair = _Pair(self, client, upstream)
            with self._lock:
                self._pairs.add(pair)
            pair.start()


def idle(app: Any) -> None:
    """
    Wait until a sync socket.io app's python-engineio client has no packet to send and no POST
    under way (its queue is done), so that a `hold()` after it holds no earlier request.
    """
    eventually(lambda: app.connection.client.eio.queue.unfinished_tasks == 0)


async def idle_async(app: Any) -> None:
    """`idle()` for an asyncio app: the answer to a call can overtake its POST's own answer."""
    await eventually_async(lambda: app.connection.client.eio.queue._unfinished_tasks == 0)

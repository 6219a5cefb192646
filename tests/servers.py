"""
The servers the tests run, on loopback, with one contract: `start()` returns once the server
answers, `url` is its base URL, `log()` what it printed (for failure messages), `stop()` ends it;
`with server:` starts it and stops it afterwards.

    with AsgiThreadServer(get_asgi_application()) as server:       # in a thread, under uvicorn
        server.run(server.application.server.sio.disconnect(sid))  # a coroutine on its loop
    AsgiThreadServer(application, port=port)                        # again on a port: a restart

    server = ProcessServer("uvicorn", [python, "-m", "uvicorn", ..., "--port", "{port}"],
                           cwd=ROOT, log_dir=tmp_path, ready_path="/ready").start()
    server = ProcessServer("feathers", ["node", "server.js", "0"], cwd=NODE_DIR,
                           log_dir=tmp_path).start()   # ready once it prints "listening on URL"

    class Echo(HttpPeer):                               # a scripted HTTP peer
        handler = EchoHandler                           # a `BaseHTTPRequestHandler`

A child process writes to a log file, never to a pipe that could fill up and block it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import Coroutine, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import requests

from tests.waiting import eventually

#: Seconds a server may take to answer once started: generous, for a busy machine.
START_TIMEOUT = 60.0

#: Seconds a server may take to stop before it is killed.
STOP_TIMEOUT = 10.0

#: The line a child process prints once it listens, naming its URL.
READY_LINE = re.compile(r"listening on (http://\S+)")

AnyServer = TypeVar("AnyServer", bound="Server")


class ServerFailed(RuntimeError):
    """The server exited, or did not answer in time."""


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """What every test server offers."""

    name = "server"
    url = ""

    def start(self: AnyServer) -> AnyServer:
        """Start the server and return it once it answers."""
        raise NotImplementedError

    def stop(self) -> None:
        """End the server (a stopped or never started server is left alone)."""
        raise NotImplementedError

    def log(self) -> str:
        """What the server has printed or logged so far."""
        raise NotImplementedError

    def failed(self, reason: str) -> ServerFailed:
        """The error of a server that did not come up, with its log."""
        return ServerFailed(f"The {self.name} server {reason}:\n{self.log()}")

    def __enter__(self: AnyServer) -> AnyServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


class _LogRecords(logging.Handler):
    """The records one thread logs, formatted."""

    def __init__(self, thread: threading.Thread) -> None:
        super().__init__()
        self.thread = thread
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread.ident:
            self.lines.append(self.format(record))


class AsgiThreadServer(Server):
    """An ASGI application under uvicorn in a thread of the tests, on `port` or a free one."""

    name = "ASGI"

    def __init__(
        self, application: Any, *, port: int = 0, lifespan: str = "on", ws: Any = "wsproto"
    ) -> None:
        # wsproto, uvicorn's pure-Python websockets protocol, unless a test asks for another:
        # the one uvicorn picks where `websockets` is not installed, whatever the test
        # environment has.
        import uvicorn

        self.application = application
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # A restart binds the port of a stopped server, whose connections may linger.
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.port = int(self.listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        # A request still open at the stop (a long poll) is cancelled after a few seconds, so
        # that the lifespan's shutdown runs before `stop()` gives up waiting for the thread.
        config = uvicorn.Config(
            application,
            log_level="warning",
            lifespan=lifespan,
            ws=ws,
            timeout_graceful_shutdown=int(STOP_TIMEOUT / 2),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, name=f"uvicorn-{self.port}", daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._records = _LogRecords(self.thread)

    def _serve(self) -> None:
        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve(sockets=[self.listener])

        asyncio.run(serve())

    def start(self) -> AsgiThreadServer:
        logging.getLogger().addHandler(self._records)
        self.thread.start()
        eventually(lambda: self.server.started or not self.thread.is_alive(), START_TIMEOUT)
        if not self.server.started:
            self.stop()
            raise self.failed("did not start")
        return self

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 10.0) -> Any:
        """Run `coroutine` on the server's event loop and return its result."""
        assert self.loop is not None, "the server is not running"
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(STOP_TIMEOUT)
        elif self.thread.ident is None and self.server.config.lifespan == "on":
            # Never served: the application still holds what it took when it was made (a
            # socket.io server's subscription to the event bus), which its lifespan releases.
            asyncio.run(_lifespan(self.application))
        self.listener.close()
        logging.getLogger().removeHandler(self._records)

    def log(self) -> str:
        return "\n".join(self._records.lines)


async def _lifespan(application: Any) -> None:
    """Take `application` through an ASGI lifespan's startup and shutdown."""
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive() -> dict[str, str]:
        return next(messages)

    async def send(message: Any) -> None:
        pass

    await application({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)


class ProcessServer(Server):
    """
    A server in a child process, its output in `log_dir/<name>.log`. A `{port}` in the command
    is a free port, and the server is ready once `ready_path` answers below 500 there;
    without one, the server is ready once it prints "listening on <its URL>". `env` is added
    to the environment of the tests (with `inherit_env=False`, it is the whole environment).
    """

    process: subprocess.Popen[bytes] | None = None

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        *,
        cwd: Path,
        log_dir: Path,
        env: Mapping[str, str] | None = None,
        inherit_env: bool = True,
        ready_path: str | None = None,
        timeout: float = START_TIMEOUT,
    ) -> None:
        self.name = name
        self.port = free_port() if any("{port}" in part for part in command) else None
        self.command = [part.replace("{port}", str(self.port)) for part in command]
        self.cwd = cwd
        self.log_path = log_dir / f"{name}.log"
        #: The environment of the process: the test's with `env` added, or `env` alone.
        self.env = {**(os.environ if inherit_env else {}), **(env or {})}
        self.ready_path = ready_path
        self.timeout = timeout
        if self.port is not None:
            self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            eventually(self._ready, self.timeout, message=f"the {self.name} server answers")
        except AssertionError:
            self.stop()
            raise self.failed(f"did not answer in {self.timeout} s") from None
        return self

    def _ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise self.failed(f"exited with {self.process.returncode}")
        if self.ready_path is None:
            match = READY_LINE.search(self.log())
            if match:
                self.url = match.group(1)
            return match is not None
        try:
            with requests.get(self.url + self.ready_path, timeout=2) as response:
                return response.status_code < 500
        except requests.RequestException:
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")


class PeerHttpServer(ThreadingHTTPServer):
    """`http.server` for an `HttpPeer`: each connection in a thread, errors to the peer."""

    daemon_threads = True

    def __init__(self, peer: HttpPeer) -> None:
        self.peer = peer
        super().__init__(("127.0.0.1", 0), peer.handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        self.peer.handle_error(request, client_address)


class HttpPeer(Server):
    """
    A scripted HTTP peer: `handler` (a `BaseHTTPRequestHandler`, which finds the peer at
    `self.server.peer`) answers each connection in a thread.
    """

    name = "HTTP peer"
    handler: type[BaseHTTPRequestHandler]

    def __init__(self) -> None:
        self.httpd = PeerHttpServer(self)
        host, port = self.httpd.server_address[:2]
        self.url = f"http://{host!s}:{port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.errors: list[str] = []

    def start(self) -> HttpPeer:
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A handler failed: its traceback goes to the log (a peer may fail the test instead)."""
        self.errors.append(traceback.format_exc())
        print(self.errors[-1], file=sys.stderr)

    def log(self) -> str:
        return "\n".join(self.errors)

"""
Clients that log in over socket.io and record every `people` event they receive, in order,
and every connect with whether it recovered the session: ours (`socketio_client()` on
python-socketio, websocket or long-polling) and the real Feathers JS client
(`@feathersjs/socketio-client` on socket.io-client, `tests/interop/node/chaos-client.js` in a
child process). Both reconnect by themselves after a lost connection and log in again.

    listener = listen("feathers-js", proxy.url, credentials, logs).start()
    listener.events()       # [("created", {...}), ("patched", {...}), ...]
    listener.connects()     # [False, True]: the first connect, then a recovered one
    listener.close()
"""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

from tests.waiting import eventually

#: The clients, by name.
CLIENTS = ("feathers-js", "python", "python-polling")

#: Seconds python-socketio and socket.io-client wait before a reconnect attempt, at first and
#: at most: short, so that a scenario ends in seconds.
RECONNECT_DELAY = (0.1, 0.5)


class Listener:
    """A client that records what it hears."""

    name = ""

    def start(self) -> Listener:
        """Connect and log in; return once logged in."""
        raise NotImplementedError

    def events(self) -> list[tuple[str, Any]]:
        """`(event, data)` of every `people` event received, in order."""
        raise NotImplementedError

    def connects(self) -> list[bool]:
        """Every connect so far, in order: whether it recovered the session."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PythonListener(Listener):
    """Our client: `socketio_client()` with the authentication client."""

    def __init__(self, url: str, credentials: dict[str, str], transport: str) -> None:
        import socketio

        from django_services.client import App, authentication_client, socketio_client

        self.name = "python" if transport == "websocket" else f"python-{transport}"
        first, most = RECONNECT_DELAY
        client = socketio.Client(
            reconnection_delay=first, reconnection_delay_max=most, randomization_factor=0
        )
        options = {"transports": [transport], "timeout": 10}
        self.connection = socketio_client(url, client, options=options)
        self.app = App().configure(self.connection).configure(authentication_client())
        self.credentials = credentials
        self._lock = threading.Lock()
        self._events: list[tuple[str, Any]] = []
        self._connects: list[bool] = []
        for event in ("created", "patched"):
            self.app.service("people").on(event, self._recorder(event))
        on_connect = client.handlers["/"]["connect"]

        def connected() -> None:
            # The transport has read the CONNECT answer: `recovered` is this connect's.
            with self._lock:
                self._connects.append(self.connection.recovered)
            on_connect()

        client.on("connect", connected)

    def _recorder(self, event: str) -> Any:
        def record(data: Any) -> None:
            with self._lock:
                self._events.append((event, data))

        return record

    def start(self) -> PythonListener:
        self.app.authenticate(self.credentials)
        return self

    def events(self) -> list[tuple[str, Any]]:
        with self._lock:
            return list(self._events)

    def connects(self) -> list[bool]:
        with self._lock:
            return list(self._connects)

    def close(self) -> None:
        self.connection.close()


class FeathersListener(Listener):
    """The Feathers JS client in a node process, recording into a file of JSON lines."""

    name = "feathers-js"

    def __init__(self, url: str, credentials: dict[str, str], logs: Path) -> None:
        from tests.interop.feathers_js import NODE_DIR, tools

        node, _ = tools()
        self.record = logs / f"feathers-js-{id(self)}.jsonl"
        self.record.write_text("")
        self.log_path = self.record.with_suffix(".log")
        self.command = [node, "chaos-client.js", url, credentials["email"]]
        self.command += [credentials["password"], str(self.record)]
        self.cwd = NODE_DIR
        self.process: subprocess.Popen[bytes] | None = None

    def _lines(self) -> list[dict[str, Any]]:
        text = self.record.read_text()
        # The last line may be half written.
        return [json.loads(line) for line in text.split("\n")[:-1] if line]

    def start(self) -> FeathersListener:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

        def logged_in() -> bool:
            lines = self._lines()
            errors = [line for line in lines if line["kind"] == "error"]
            assert not errors and self.process and self.process.poll() is None, (
                f"the Feathers client failed: {errors} {self.log_path.read_text()}"
            )
            return any(line["kind"] == "login" for line in lines)

        eventually(logged_in, 30, message="the Feathers client logs in")
        return self

    def events(self) -> list[tuple[str, Any]]:
        return [(line["event"], line["data"]) for line in self._lines() if line["kind"] == "event"]

    def connects(self) -> list[bool]:
        return [bool(line["recovered"]) for line in self._lines() if line["kind"] == "connect"]

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def listen(client: str, url: str, credentials: dict[str, str], logs: Path) -> Listener:
    """A listener of kind `client` (one of `CLIENTS`) on the server at `url`, not started."""
    if client == "feathers-js":
        return FeathersListener(url, credentials, logs)
    if client == "python":
        return PythonListener(url, credentials, "websocket")
    if client == "python-polling":
        return PythonListener(url, credentials, "polling")
    raise ValueError(f"Unknown client {client!r}: one of {', '.join(CLIENTS)}")

"""
The Python socket.io client against a real socket.io 4.8 server with connection state recovery
on (node/recovery-server.js): it keeps the private id and last offset, resumes its session after
a network cut (the missed events replayed, in order, once, before the connect), reconnects fresh
past the server's window, and its handlers get the data without the offset. Sync and async,
websocket and long-polling; the network is cut by a proxy between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from django_services.client import App, socketio_client
from tests.client.proxy import Proxy
from tests.servers import ProcessServer
from tests.waiting import eventually, eventually_async

from .feathers_js import NODE_DIR, tools

pytestmark = pytest.mark.interop

TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])
#: Events emitted while the client is cut off.
MISSED = 5


class RecoveryServer(ProcessServer):
    """node/recovery-server.js in a child process, and the HTTP API that drives it."""

    def emit(self, count: int = 1, start: int = 0) -> int:
        """Emit `count` events numbered from `start`; the number of sockets connected."""
        answer = requests.post(
            f"{self.url}/emit", params={"count": count, "from": start}, timeout=5
        )
        return int(answer.json()["sockets"])

    def expire(self) -> None:
        """Every session saved is now past the server's recovery window."""
        requests.post(f"{self.url}/expire", timeout=5).raise_for_status()

    def state(self) -> dict[str, Any]:
        return dict(requests.get(f"{self.url}/handshakes", timeout=5).json())

    def handshakes(self) -> list[dict[str, Any]]:
        return list(self.state()["handshakes"])

    def sockets(self) -> int:
        return int(self.state()["sockets"])


@pytest.fixture
def server(node_packages: Path, server_logs: Path) -> Iterator[RecoveryServer]:
    node, _ = tools()
    with RecoveryServer(
        "socketio-recovery", [node, "recovery-server.js", "0"], cwd=NODE_DIR, log_dir=server_logs
    ) as server:
        yield server


@pytest.fixture
def proxy(server: RecoveryServer) -> Iterator[Proxy]:
    proxy = Proxy(server.url).start()
    yield proxy
    proxy.stop()


def make_app(url: str, transport: str, *, is_async: bool, **options: Any) -> App:
    client_class = socketio.AsyncClient if is_async else socketio.Client
    client = client_class(reconnection_delay=0.05, reconnection_delay_max=0.2)
    options = {"transports": [transport], "timeout": 10, **options}
    return App().configure(socketio_client(url, client, options=options))


class Observed:
    """
    What the connection's handlers of python-socketio's events saw, in order: the number of each
    event (`"todos created"`) handed to the connection, and `"connect"` for each connect; and
    what the service's handler received.
    """

    def __init__(self, app: App) -> None:
        self.log: list[Any] = []
        self.received: list[Any] = []
        connection = app.connection
        client = connection.client
        on_event, on_connect = client.handlers["/"]["*"], client.handlers["/"]["connect"]
        app.service("todos").on("created", self.received.append)
        if connection.is_async:

            async def event(name: str, *args: Any) -> None:
                self.log.append(self.entry(args))
                await on_event(name, *args)

            async def connect() -> None:
                self.log.append("connect")
                await on_connect()

            client.on("*", event)
            client.on("connect", connect)
        else:

            def sync_event(name: str, *args: Any) -> None:
                self.log.append(self.entry(args))
                on_event(name, *args)

            def sync_connect() -> None:
                self.log.append("connect")
                on_connect()

            client.on("*", sync_event)
            client.on("connect", sync_connect)

    @staticmethod
    def entry(args: tuple[Any, ...]) -> Any:
        # An event's number when its data came alone (without the offset), else what came.
        return args[0]["n"] if len(args) == 1 and isinstance(args[0], dict) else args

    def numbers(self) -> list[Any]:
        return [data["n"] if isinstance(data, dict) else data for data in self.received]


def cut(server: RecoveryServer, proxy: Proxy, app: App) -> None:
    """Cut the network: the client sees its transport lost, the server its socket gone."""
    proxy.down()
    eventually(lambda: app.connection.reconnecting, message="the client sees the loss")
    eventually(lambda: server.sockets() == 0, message="the server sees the socket gone")


def back(app: App) -> bool:
    connection = app.connection
    return bool(connection.up and not connection.reconnecting and connection.client.connected)


def login(app: App) -> Any:
    return app.service("authentication").create({"strategy": "local", "email": "ada@example.com"})


async def alogin(app: App) -> Any:
    return await app.service("authentication").create(
        {"strategy": "local", "email": "ada@example.com"}
    )


@TRANSPORTS
def test_the_missed_events_are_replayed_in_order_once_before_the_connect(server, proxy, transport):
    app = make_app(proxy.url, transport, is_async=False)
    observed = Observed(app)
    try:
        assert login(app)["accessToken"] == "token-1"
        assert app.connection.recovered is False
        pid = app.connection.recovery.pid
        assert isinstance(pid, str) and pid
        assert server.emit(2) == 1
        eventually(lambda: observed.numbers() == [0, 1])
        cut(server, proxy, app)
        server.emit(MISSED, start=2)
        proxy.up()
        eventually(lambda: back(app), message="the client reconnects")
        eventually(lambda: len(observed.received) >= 2 + MISSED)
        server.emit(1, start=100)  # the barrier: nothing came twice before it
        eventually(lambda: observed.numbers()[-1:] == [100])
        assert observed.numbers() == [*range(2 + MISSED), 100]
        assert observed.log == ["connect", 0, 1, *range(2, 2 + MISSED), "connect", 100]
        assert app.connection.recovered is True
        first, again = server.handshakes()
        assert first["auth"] == {} and first["recovered"] is False
        assert again["auth"]["pid"] == pid and isinstance(again["auth"]["offset"], str)
        assert again["recovered"] is True and again["id"] == first["id"]
        # The login is made again over the resumed socket, as after any reconnect.
        assert [made["strategy"] for made in server.state()["logins"]] == ["local", "jwt"]
    finally:
        app.connection.close()


@TRANSPORTS
async def test_an_async_client_gets_the_missed_events_in_order_once_before_the_connect(
    server, proxy, transport
):
    app = make_app(proxy.url, transport, is_async=True)
    observed = Observed(app)
    try:
        assert (await alogin(app))["accessToken"] == "token-1"
        assert app.connection.recovered is False
        pid = app.connection.recovery.pid
        assert await asyncio.to_thread(server.emit, 2) == 1
        await eventually_async(lambda: observed.numbers() == [0, 1])
        await asyncio.to_thread(cut, server, proxy, app)
        await asyncio.to_thread(server.emit, MISSED, 2)
        proxy.up()
        await eventually_async(lambda: back(app), message="the client reconnects")
        await asyncio.to_thread(server.emit, 1, 100)
        await eventually_async(lambda: observed.numbers()[-1:] == [100])
        assert observed.numbers() == [*range(2 + MISSED), 100]
        assert observed.log == ["connect", 0, 1, *range(2, 2 + MISSED), "connect", 100]
        assert app.connection.recovered is True
        _, again = await asyncio.to_thread(server.handshakes)
        assert again["auth"]["pid"] == pid and again["recovered"] is True
        logins = (await asyncio.to_thread(server.state))["logins"]
        assert [made["strategy"] for made in logins] == ["local", "jwt"]
    finally:
        await app.connection.aclose()


@TRANSPORTS
@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_past_the_window_the_client_reconnects_fresh(server, proxy, transport, is_async):
    app = make_app(proxy.url, transport, is_async=is_async)
    observed = Observed(app)
    try:
        if is_async:
            await app.connection.connect()
        else:
            await asyncio.to_thread(app.connection.connect)
        pid = app.connection.recovery.pid
        await asyncio.to_thread(server.emit, 1)
        await eventually_async(lambda: observed.numbers() == [0])
        await asyncio.to_thread(cut, server, proxy, app)
        await asyncio.to_thread(server.emit, MISSED, 1)
        await asyncio.to_thread(server.expire)
        proxy.up()
        await eventually_async(lambda: back(app), message="the client reconnects")
        await asyncio.to_thread(server.emit, 1, 100)
        await eventually_async(lambda: observed.numbers()[-1:] == [100])
        # The events of the gap are lost: the barrier came, and none of them before it.
        assert observed.numbers() == [0, 100]
        assert app.connection.recovered is False
        assert app.connection.recovery.pid not in (None, pid)
        _, again = await asyncio.to_thread(server.handshakes)
        assert again["auth"]["pid"] == pid and again["recovered"] is False
    finally:
        if is_async:
            await app.connection.aclose()
        else:
            await asyncio.to_thread(app.connection.close)


@TRANSPORTS
@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_a_client_that_received_no_event_sends_its_pid_alone(
    server, proxy, transport, is_async
):
    app = make_app(proxy.url, transport, is_async=is_async)
    try:
        if is_async:
            await app.connection.connect()
        else:
            await asyncio.to_thread(app.connection.connect)
        pid = app.connection.recovery.pid
        await asyncio.to_thread(cut, server, proxy, app)
        proxy.up()
        await eventually_async(lambda: back(app), message="the client reconnects")
        first, again = await asyncio.to_thread(server.handshakes)
        assert first["auth"] == {}
        # As socket.io-client: the offset is undefined, and socket.io does not recover.
        assert again["auth"] == {"pid": pid} and again["recovered"] is False
        assert app.connection.recovered is False
    finally:
        if is_async:
            await app.connection.aclose()
        else:
            await asyncio.to_thread(app.connection.close)


def test_the_callers_own_auth_keys_win(server, proxy):
    auth = {"token": "abc", "offset": "mine"}
    app = make_app(proxy.url, "websocket", is_async=False, auth=auth)
    observed = Observed(app)
    try:
        app.connection.connect()
        pid = app.connection.recovery.pid
        server.emit(1)
        eventually(lambda: observed.numbers() == [0])
        cut(server, proxy, app)
        proxy.up()
        eventually(lambda: back(app), message="the client reconnects")
        first, again = server.handshakes()
        assert first["auth"] == auth
        assert again["auth"] == {"pid": pid, "token": "abc", "offset": "mine"}
        assert again["recovered"] is False and app.connection.recovered is False
    finally:
        app.connection.close()

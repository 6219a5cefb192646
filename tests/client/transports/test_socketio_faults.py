"""
The socket.io client when the network fails: through a proxy the tests control (drops, a server
that goes away and comes back, held answers) to our own server, sync and async, on websocket
and on long-polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
import socketio

from django_services.client import App, Retries, authentication_client, socketio_client
from django_services.client.transports._engineio import adapt
from django_services.errors import NotAuthenticated, Unavailable
from tests.client.proxy import Proxy, idle, idle_async
from tests.server.socketio.conftest import (  # noqa: F401 (fixtures)
    EMAIL,
    PASSWORD,
    LiveSocketServer,
    services_settings,
    user,
)
from tests.waiting import eventually, eventually_async

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHER = "tests.interop.conformance.realtime.ConformancePublisher"
LOGIN = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])


def knows(server: LiveSocketServer, app: App, old_sid: str | None) -> bool:
    """
    Whether the client's socket is a new one the server has connected, and python-socketio's
    `connect()` has returned: a disconnect that arrives before then is one it ignores.
    """
    client = app.connection.client
    connections = list(server.application.server.connections.values())
    return client.connected and client.sid not in (None, old_sid) and bool(connections)


def disconnect_all(server: LiveSocketServer) -> None:
    """The server ends every socket, as it does when a token expires."""
    socket_server = server.application.server

    async def disconnect() -> None:
        for connection in list(socket_server.connections.values()):
            await socket_server.sio.disconnect(connection.sid)

    server.run(disconnect())


@pytest.fixture
def server(services_settings, settings, transactional_db):  # noqa: F811
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}
    server = LiveSocketServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def proxy(server):
    proxy = Proxy(server.url).start()
    yield proxy
    proxy.stop()


def sync_app(url: str, transport: str, client_class=socketio.Client, **options) -> App:
    client = client_class(reconnection_delay=0.05, reconnection_delay_max=0.2)
    options = {"transports": [transport], "timeout": 10, **options}
    return (
        App()
        .configure(socketio_client(url, client, options=options))
        .configure(authentication_client())
    )


def async_app(url: str, transport: str, client_class=socketio.AsyncClient, **options) -> App:
    client = client_class(reconnection_delay=0.05, reconnection_delay_max=0.2)
    options = {"transports": [transport], "timeout": 10, **options}
    return (
        App()
        .configure(socketio_client(url, client, options=options))
        .configure(authentication_client())
    )


#: How long a reconnect after a server disconnect may take: over long-polling the engine waits
#: for its poll in flight to end first (the server answers a waiting poll within 5 s), longer
#: on a machine busy with other suites.
RECONNECT = 30.0


class HeldReconnectClient(socketio.Client):
    """
    python-socketio's client whose reconnect the test holds, while `holding`, once its
    namespace is connected and before `connect()` returns: the window in which python-socketio
    does not see a transport loss. Held for `hold_for` seconds at most (`gate.set()` ends it
    sooner): a machine so busy that python-socketio's thread runs again that much later.
    """

    def __init__(self, *args, holding: bool = False, hold_for: float = 30.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.holding = holding
        self.hold_for = hold_for
        self.in_window = threading.Event()
        self.gate = threading.Event()

    def connect(self, *args, **kwargs):
        client = self

        class HeldEvent(threading.Event):
            def wait(self, timeout: float | None = None) -> bool:
                woke = super().wait(timeout)
                if woke and client.holding:
                    client.in_window.set()
                    client.gate.wait(client.hold_for)
                return woke

        self._connect_event = HeldEvent()
        return super().connect(*args, **kwargs)


class HeldReconnectAsyncClient(socketio.AsyncClient):
    """`HeldReconnectClient` for asyncio."""

    def __init__(self, *args, holding: bool = False, hold_for: float = 30.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.holding = holding
        self.hold_for = hold_for
        self.in_window = asyncio.Event()
        self.gate = asyncio.Event()

    async def connect(self, *args, **kwargs):
        client = self

        class HeldEvent(asyncio.Event):
            async def wait(self) -> bool:  # type: ignore[override]
                await super().wait()
                if client.holding:
                    client.in_window.set()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(client.gate.wait(), client.hold_for)
                return True

        self._connect_event = HeldEvent()
        return await super().connect(*args, **kwargs)


#: python-socketio's own client, and one slow to return from its reconnect's `connect()`.
SYNC_CLIENTS = pytest.mark.parametrize(
    "client_class",
    [socketio.Client, functools.partial(HeldReconnectClient, holding=True, hold_for=0.3)],
    ids=["python-socketio", "slow-to-return"],
)
ASYNC_CLIENTS = pytest.mark.parametrize(
    "client_class",
    [socketio.AsyncClient, functools.partial(HeldReconnectAsyncClient, holding=True, hold_for=0.3)],
    ids=["python-socketio", "slow-to-return"],
)


@TRANSPORTS
@SYNC_CLIENTS
def test_a_call_waiting_for_a_reconnect_goes_once_the_socket_is_back(
    proxy, transport, client_class
):
    app = sync_app(proxy.url, transport, client_class)
    try:
        people = app.service("people")
        assert people.find() == []
        for _ in range(3):
            proxy.down()
            eventually(lambda: app.connection.reconnecting)
            with ThreadPoolExecutor(1) as pool:
                waiting = pool.submit(people.find)
                proxy.up()
                assert waiting.result(15) == []
            # The call went once python-socketio's reconnect was over: it sees the next loss.
            assert app.connection.client.connected
    finally:
        app.connection.close()


@TRANSPORTS
@ASYNC_CLIENTS
async def test_an_async_call_waiting_for_a_reconnect_goes_once_the_socket_is_back(
    proxy, transport, client_class
):
    app = async_app(proxy.url, transport, client_class)
    try:
        people = app.service("people")
        assert await people.find() == []
        for _ in range(3):
            proxy.down()
            await eventually_async(lambda: app.connection.reconnecting)
            waiting = asyncio.ensure_future(people.find())
            proxy.up()
            assert await asyncio.wait_for(waiting, 15) == []
            assert app.connection.client.connected
    finally:
        await app.connection.aclose()


@TRANSPORTS
def test_a_drop_python_socketio_does_not_see_fails_the_waiting_call_and_the_next_reconnects(
    proxy, transport
):
    app = sync_app(proxy.url, transport, HeldReconnectClient)
    client = app.connection.client
    try:
        people = app.service("people")
        assert people.find() == []
        client.holding = True
        proxy.down()
        eventually(lambda: app.connection.reconnecting)
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(people.find)
            proxy.up()
            assert client.in_window.wait(15)
            proxy.down()
            # python-socketio has handled the loss (without a word: not yet connected).
            eventually(lambda: client.sid is None)
            proxy.up()
            client.holding = False
            client.gate.set()
            with pytest.raises(Unavailable):
                waiting.result(15)
        assert people.find() == []
        assert app.connection.up and client.connected
    finally:
        client.gate.set()
        app.connection.close()


@TRANSPORTS
async def test_an_async_drop_python_socketio_does_not_see_fails_the_waiting_call(proxy, transport):
    app = async_app(proxy.url, transport, HeldReconnectAsyncClient)
    client = app.connection.client
    try:
        people = app.service("people")
        assert await people.find() == []
        client.holding = True
        proxy.down()
        await eventually_async(lambda: app.connection.reconnecting)
        waiting = asyncio.ensure_future(people.find())
        proxy.up()
        await asyncio.wait_for(client.in_window.wait(), 15)
        # Down, not dropped: aiohttp sends a dropped long poll again on a new connection.
        proxy.down()
        await eventually_async(lambda: client.sid is None)
        proxy.up()
        client.holding = False
        client.gate.set()
        with pytest.raises(Unavailable):
            await asyncio.wait_for(waiting, 15)
        assert await people.find() == []
        assert app.connection.up and client.connected
    finally:
        client.gate.set()
        await app.connection.aclose()


def _sent_by_the_client(transport: str) -> bytes:
    # A websocket client masks its frames: only that it sent something can be seen.
    return b'"authentication"' if transport == "polling" else b""


@TRANSPORTS
@pytest.mark.usefixtures("user")
def test_a_drop_during_the_login_after_a_reconnect_keeps_the_login(proxy, transport):
    app = sync_app(proxy.url, transport, HeldReconnectClient)
    client = app.connection.client
    try:
        app.authenticate(LOGIN)
        assert app.service("secrets").find() is not None
        client.holding = True
        proxy.down()
        eventually(lambda: app.connection.reconnecting)
        proxy.up()
        assert client.in_window.wait(15)
        # The new socket's first call is the login again: its answer is held, then it drops.
        idle(app)
        proxy.hold()
        proxy.forget_sent()
        client.holding = False
        client.gate.set()
        proxy.wait_for_sent(_sent_by_the_client(transport))
        proxy.drop()
        proxy.release()
        # python-socketio reconnects once more, and the socket is logged in again.
        assert app.service("secrets").find() is not None
        assert app.connection.access_token
    finally:
        client.gate.set()
        app.connection.close()


@TRANSPORTS
@pytest.mark.usefixtures("user")
async def test_an_async_drop_during_the_login_after_a_reconnect_keeps_the_login(proxy, transport):
    app = async_app(proxy.url, transport, HeldReconnectAsyncClient)
    client = app.connection.client
    try:
        await app.authenticate(LOGIN)
        assert await app.service("secrets").find() is not None
        client.holding = True
        proxy.down()
        await eventually_async(lambda: app.connection.reconnecting)
        proxy.up()
        await asyncio.wait_for(client.in_window.wait(), 15)
        await idle_async(app)
        proxy.hold()
        proxy.forget_sent()
        client.holding = False
        client.gate.set()
        await asyncio.to_thread(proxy.wait_for_sent, _sent_by_the_client(transport))
        proxy.drop()
        proxy.release()
        assert await app.service("secrets").find() is not None
        assert app.connection.access_token
    finally:
        client.gate.set()
        await app.connection.aclose()


async def test_a_long_poll_the_server_refuses_gives_its_connection_back(server):
    # A poll for a session the server has ended (a retried poll after a drop, a restart) is
    # answered 400; python-engineio's read loop gives up on it by its status alone.
    engine = adapt(socketio.AsyncClient().eio)
    try:
        url = f"{server.url}/socket.io/?EIO=4&transport=polling&sid=ended"
        answer = await engine._send_request("GET", url, timeout=5)
        assert answer.status == 400
        assert answer.connection is None  # back in aiohttp's pool, not left to the collector
    finally:
        await engine.http.close()


def _calls_across_a_server_disconnect(app: App, server: LiveSocketServer) -> list[BaseException]:
    people = app.service("people")
    failures: list[BaseException] = []
    done = threading.Event()

    def call_again_and_again() -> None:
        while not done.is_set():
            try:
                people.find()
            except Exception as exc:
                failures.append(exc)
                done.wait(0.01)  # no busy loop while the socket is down

    with ThreadPoolExecutor(2) as pool:
        callers = [pool.submit(call_again_and_again) for _ in range(2)]
        try:
            for _ in range(3):
                sid = app.connection.client.sid
                disconnect_all(server)
                eventually(lambda sid=sid: knows(server, app, sid), RECONNECT)
        finally:
            done.set()
        for caller in callers:
            caller.result(30)
    return failures


@TRANSPORTS
def test_a_call_as_the_server_disconnects_reconnects_or_fails_typed(server, transport):
    app = sync_app(server.url, transport)
    try:
        assert app.service("people").find() == []
        failures = _calls_across_a_server_disconnect(app, server)
        assert all(isinstance(failure, Unavailable) for failure in failures), failures
        assert app.service("people").find() == []
    finally:
        app.connection.close()


@TRANSPORTS
async def test_an_async_call_as_the_server_disconnects_reconnects_or_fails_typed(server, transport):
    app = async_app(server.url, transport)
    people = app.service("people")
    try:
        assert await people.find() == []
        failures: list[BaseException] = []
        done = asyncio.Event()

        async def call_again_and_again() -> None:
            while not done.is_set():
                try:
                    await people.find()
                except Exception as exc:
                    failures.append(exc)
                    await asyncio.sleep(0.01)  # no busy loop while the socket is down

        callers = [asyncio.ensure_future(call_again_and_again()) for _ in range(2)]
        for _ in range(3):
            sid = app.connection.client.sid
            await asyncio.to_thread(disconnect_all, server)
            await eventually_async(lambda sid=sid: knows(server, app, sid), RECONNECT)
        done.set()
        await asyncio.wait_for(asyncio.gather(*callers), 30)
        assert all(isinstance(failure, Unavailable) for failure in failures), failures
        assert await people.find() == []
    finally:
        await app.connection.aclose()


@pytest.mark.usefixtures("user")
def test_a_burst_of_events_over_polling_keeps_the_connection(server):
    app = sync_app(server.url, "polling")
    try:
        app.authenticate(LOGIN)
        seen: list[dict] = []
        app.service("people").on("created", seen.append)
        sid = app.connection.client.sid
        names = [{"name": f"burst {n}"} for n in range(40)]
        made = requests.post(f"{server.url}/people", json=names, timeout=10)
        assert made.status_code == 201, made.text
        eventually(lambda: len(seen) == 40)
        assert app.connection.client.sid == sid
    finally:
        app.connection.close()


async def test_a_burst_of_async_calls_over_polling_keeps_the_connection(server):
    app = async_app(server.url, "polling")
    try:
        people = app.service("people")
        assert await people.find() == []
        sid = app.connection.client.sid
        assert await asyncio.gather(*(people.find() for _ in range(30))) == [[]] * 30
        assert app.connection.client.sid == sid
    finally:
        await app.connection.aclose()


async def test_an_async_polling_call_fails_at_once_when_the_connection_drops(proxy):
    app = async_app(proxy.url, "polling", timeout=30)
    try:
        people = app.service("people")
        assert await people.find() == []
        await idle_async(app)
        proxy.hold()
        proxy.forget_sent()
        waiting = asyncio.ensure_future(people.find())
        await asyncio.to_thread(proxy.wait_for_sent, b'"find"')
        proxy.drop()
        proxy.release()
        started = time.monotonic()
        with pytest.raises(Unavailable):
            await waiting
        # Well before the call's own timeout (30 s) and the server's ping timeout (20 s).
        assert time.monotonic() - started < 10
        assert await people.find() == []
    finally:
        await app.connection.aclose()


@pytest.mark.usefixtures("user")
def test_sync_handlers_get_events_in_the_order_the_server_sent_them(server):
    app = sync_app(server.url, "websocket")
    try:
        app.authenticate(LOGIN)
        seen: list[str] = []

        def on_created(person: dict) -> None:
            sum(range(20000))  # a handler that works a little while the next events arrive
            seen.append(person["name"])

        app.service("people").on("created", on_created)
        assert app.service("people").find() == []
        names = [f"ordered {n:03}" for n in range(100)]
        made = requests.post(f"{server.url}/people", json=[{"name": n} for n in names], timeout=10)
        assert made.status_code == 201, made.text
        eventually(lambda: len(seen) == len(names))
        assert seen == names
    finally:
        app.connection.close()


def test_close_during_a_polling_post_ends_the_server_session(server, proxy):
    app = sync_app(proxy.url, "polling")
    people = app.service("people")
    assert people.find() == []
    assert len(server.application.server.connections) == 1
    idle(app)
    proxy.hold()
    proxy.forget_sent()
    with ThreadPoolExecutor(2) as pool:
        pool.submit(people.find, connection={"timeout": 5})
        proxy.wait_for_sent(b'"find"')
        closing = pool.submit(app.connection.close)
        eventually(lambda: app.connection.client.eio.state != "connected")
        proxy.release()
        closing.result(10)
    # Well before the server's ping interval (25 s) ends the session by itself.
    eventually(lambda: not server.application.server.connections, timeout=10)


@TRANSPORTS
def test_a_refused_handshake_raises_the_servers_error(server, transport):
    app = sync_app(server.url, transport, headers={"Authorization": "Bearer not-a-token"})
    try:
        with pytest.raises(NotAuthenticated, match="jwt malformed") as refused:
            app.service("people").find()
        assert refused.value.code == 401
    finally:
        app.connection.close()


@TRANSPORTS
async def test_a_refused_async_handshake_raises_the_servers_error(server, transport):
    app = async_app(server.url, transport, headers={"Authorization": "Bearer not-a-token"})
    try:
        with pytest.raises(NotAuthenticated, match="jwt malformed"):
            await app.service("people").find()
    finally:
        await app.connection.aclose()


@TRANSPORTS
def test_an_idempotent_call_is_sent_again_after_a_drop_with_retries(proxy, transport):
    app = sync_app(proxy.url, transport, retries=Retries(total=3, backoff_factor=0.05))
    try:
        people = app.service("people")
        assert people.find() == []
        with ThreadPoolExecutor(1) as pool:
            for method, call, error in (
                ("create", lambda: people.create({"name": "once"}), Unavailable),
                ("find", people.find, None),
            ):
                eventually(lambda: app.connection.up and not app.connection.reconnecting)
                people.find()  # the socket is back
                idle(app)
                proxy.hold()
                proxy.forget_sent()
                waiting = pool.submit(call)
                proxy.wait_for_sent(f'"{method}"'.encode() if transport == "polling" else b"")
                proxy.drop()
                proxy.release()
                if error is None:
                    # Sent again once the socket is back (the create may or may not have
                    # reached the server before the drop).
                    assert isinstance(waiting.result(15), list)
                else:
                    with pytest.raises(error):
                        waiting.result(15)
    finally:
        app.connection.close()


async def test_a_throttled_call_waits_the_servers_retry_after_with_retries(server):
    app = async_app(server.url, "websocket", retries=Retries(total=5))
    people = app.service("people")
    try:
        assert await people.find() == []
        # More calls at once than the server lets one connection run (32): the rest get a 429
        # with retryAfter, and are sent again after it.
        found = await asyncio.gather(*(people.find() for _ in range(48)))
        assert found == [[]] * 48
    finally:
        await app.connection.aclose()

"""
The Python socket.io client against a real Feathers v5 server and against our own (`serve
--asgi`): every method, the errors, authentication (again after a server restart), custom
events and the events of REST writes.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
import socketio

from django_services.client import App, authentication_client, socketio_client
from django_services.errors import (
    BadRequest,
    MethodNotAllowed,
    NotAuthenticated,
    NotFound,
    Timeout,
    Unavailable,
)
from tests.client.proxy import Proxy, idle, idle_async
from tests.servers import ProcessServer
from tests.waiting import eventually

from .conftest import REPOSITORY
from .databases import conformance_database
from .feathers_js import NODE_DIR, tools

pytestmark = pytest.mark.interop

PASSWORD = "socket-secret"
_emails = itertools.count()


@pytest.fixture(params=["feathers", "django-feathers"])
def server_url(request: pytest.FixtureRequest) -> str:
    name = "feathers_server" if request.param == "feathers" else "conformance_asgi_server"
    return request.getfixturevalue(name).url


def new_user(url: str) -> dict[str, str]:
    email = f"socket-{time.monotonic_ns()}-{next(_emails)}@example.com"
    response = requests.post(
        f"{url}/users", json={"email": email, "password": PASSWORD}, timeout=10
    )
    response.raise_for_status()
    return {"strategy": "local", "email": email, "password": PASSWORD}


def sync_app(url: str, **options) -> App:
    connection = socketio_client(
        url, socketio.Client(reconnection_delay=0.2), options=options or None
    )
    app = App().configure(connection).configure(authentication_client())
    app.use("todos", connection.service("todos"), methods=["find", "create", "markAllComplete"])
    return app


def test_every_method_and_the_errors(server_url: str, request: pytest.FixtureRequest) -> None:
    app = sync_app(server_url)
    try:
        people = app.service("people")
        ada = people.create({"name": "Ada Socket", "age": 36})
        assert people.get(ada["id"]) == ada
        assert people.find(query={"name": "Ada Socket"}) == [ada]
        assert people.find(query={"name": "Ada Socket", "id": {"$in": []}}) == []
        replaced = people.update(ada["id"], {"name": "Ada Socket", "age": 37})
        assert replaced["age"] == 37
        assert people.patch(ada["id"], {"age": 38})["age"] == 38
        assert people.remove(ada["id"])["age"] == 38
        with pytest.raises(NotFound) as missing:
            people.get(ada["id"])
        assert missing.value.code == 404
        with pytest.raises(NotFound, match="Service 'nowhere' not found"):
            app.service("nowhere").find()
        with pytest.raises(NotAuthenticated):
            app.service("secrets").find()
        with pytest.raises(BadRequest):
            app.service("errors").get(400)
        app.use("people-x", app.connection.service("people"), methods=["find", "shout"])
        if request.node.callspec.id == "feathers":
            # Feathers never answers a method no service has: the call's timeout ends it.
            with pytest.raises(Timeout, match="Timed out waiting for shout"):
                app.service("people-x").shout({}, connection={"timeout": 1})
        else:
            with pytest.raises(MethodNotAllowed, match="Method 'shout' not allowed"):
                app.service("people-x").shout({})
        notes = app.service("users/:userId/notes")
        note = notes.create({"text": "n"}, route={"userId": 7})
        assert notes.find(route={"userId": 7}) == [note]
    finally:
        app.connection.close()


def test_events_of_rest_writes_and_custom_events(server_url: str) -> None:
    app = sync_app(server_url)
    try:
        app.authenticate(new_user(server_url))
        created, custom = [], []
        app.service("people").on("created", created.append)
        app.service("todos").on("markedAllComplete", custom.append)
        person = requests.post(f"{server_url}/people", json={"name": "Rest"}, timeout=10).json()
        eventually(lambda: person in created)
        app.service("todos").create({"text": "t", "complete": False})
        result = app.service("todos").markAllComplete({})
        eventually(lambda: custom)
        assert custom == [result]
    finally:
        app.connection.close()


async def test_the_async_client_logs_in_and_iterates_events(server_url: str) -> None:
    connection = socketio_client(server_url, socketio.AsyncClient())
    app = App().configure(connection).configure(authentication_client())
    try:
        await app.authenticate(new_user(server_url))
        assert await app.service("secrets").find() is not None
        async with app.service("people").events("created") as stream:
            made = await app.service("people").create({"name": "async"})
            while (event := await asyncio.wait_for(anext(stream), 10)).data != made:
                pass
        assert (event.path, event.name) == ("people", "created")
        await app.logout()
        with pytest.raises(NotAuthenticated):
            await app.service("secrets").find()
    finally:
        await connection.aclose()


def _own_server(kind: str, port: int, logs: Path, database_url: str) -> ProcessServer:
    if kind == "feathers":
        node, _ = tools()
        return ProcessServer(
            f"feathers-socket-restart-{port}",
            [node, "reference-server.js", str(port)],
            cwd=NODE_DIR,
            log_dir=logs,
            env={"REFERENCE_SEED_USER": f"restart@example.com:{PASSWORD}"},
        )
    return ProcessServer(
        f"django-socket-restart-{port}",
        [sys.executable, "-m", "tests.interop.conformance.serve", "--asgi", str(port)],
        cwd=REPOSITORY,
        log_dir=logs,
        env={
            "DJANGO_SETTINGS_MODULE": "tests.interop.conformance.settings",
            "CONFORMANCE_DATABASE_URL": database_url,
            "PYTHONPATH": str(REPOSITORY),
        },
    )


@pytest.fixture(params=["feathers", "django-feathers"])
def restartable(request, server_logs: Path) -> Iterator[tuple[str, Path, str]]:
    if request.param == "feathers":
        request.getfixturevalue("node_packages")
        yield request.param, server_logs, ""
        return
    with conformance_database(server_logs, "socket-restart") as database_url:
        yield request.param, server_logs, database_url


def test_the_client_logs_in_again_after_a_server_restart(restartable) -> None:
    kind, logs, database_url = restartable
    first = _own_server(kind, 0, logs, database_url).start()
    url = first.url
    port = int(url.rsplit(":", 1)[1])
    login = {"strategy": "local", "email": "restart@example.com", "password": PASSWORD}
    if kind != "feathers":
        requests.post(f"{url}/users", json=login, timeout=10).raise_for_status()
    app = sync_app(url, timeout=5)
    second = None
    try:
        app.authenticate(login)
        assert app.service("secrets").find() is not None
        first.stop()
        eventually(lambda: not app.connection.client.connected)
        second = _own_server(kind, port, logs, database_url)
        second.start()
        # The call waits for the reconnect, and the socket is logged in again before it goes.
        eventually(lambda: app.connection.client.connected, timeout=20)
        assert app.service("secrets").find() is not None
        seen = []
        app.service("people").on("created", seen.append)
        made = requests.post(f"{url}/people", json={"name": "after"}, timeout=10).json()
        eventually(lambda: made in seen)
    finally:
        app.connection.close()
        if second is not None:
            second.stop()


# Through a proxy the tests control, against both servers: the faults of a real network.

TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])


@pytest.fixture
def proxy(server_url: str) -> Iterator[Proxy]:
    proxy = Proxy(server_url).start()
    yield proxy
    proxy.stop()


def fault_app(url: str, transport: str, client=None, **options) -> App:
    client = client or socketio.Client(reconnection_delay=0.05, reconnection_delay_max=0.2)
    options = {"transports": [transport], "timeout": 10, **options}
    connection = socketio_client(url, client, options=options)
    return App().configure(connection).configure(authentication_client())


@TRANSPORTS
def test_a_call_waiting_for_a_reconnect_goes_once_the_socket_is_back(
    proxy: Proxy, transport: str
) -> None:
    app = fault_app(proxy.url, transport)
    try:
        people = app.service("people")
        people.find(query={"$limit": 1})
        for _ in range(3):
            proxy.down()
            eventually(lambda: app.connection.reconnecting)
            with ThreadPoolExecutor(1) as pool:
                waiting = pool.submit(people.find, query={"$limit": 1})
                proxy.up()
                assert isinstance(waiting.result(15), list)
            # The call went once python-socketio's reconnect was over: it sees the next loss.
            assert app.connection.client.connected
    finally:
        app.connection.close()


def test_a_burst_of_events_over_polling_keeps_the_connection(server_url: str) -> None:
    app = fault_app(server_url, "polling")
    try:
        app.authenticate(new_user(server_url))
        tag = f"burst {time.monotonic_ns()}"
        seen: list[str] = []
        app.service("people").on(
            "created", lambda person: seen.append(person["name"]) if tag in person["name"] else None
        )
        sid = app.connection.client.sid
        names = [f"{tag} {n:02}" for n in range(40)]
        made = app.service("people").create([{"name": name} for name in names])
        assert [person["name"] for person in made] == names
        eventually(lambda: len(seen) == len(names))
        # In the order the server sent them, on the same connection.
        assert seen == names
        assert app.connection.client.sid == sid
    finally:
        app.connection.close()


async def test_a_burst_of_async_calls_over_polling_keeps_the_connection(
    server_url: str, request: pytest.FixtureRequest
) -> None:
    client = socketio.AsyncClient(reconnection_delay=0.05)
    app = fault_app(server_url, "polling", client)
    try:
        people = app.service("people")
        await people.find(query={"$limit": 1})
        sid = app.connection.client.sid
        # Our server allows 32 calls in flight on one connection; Feathers has no such limit.
        count = 200 if request.node.callspec.params["server_url"] == "feathers" else 30
        found = await asyncio.gather(*(people.find(query={"$limit": 1}) for _ in range(count)))
        assert len(found) == count
        assert app.connection.client.sid == sid
    finally:
        await app.connection.aclose()


async def test_an_async_polling_call_fails_at_once_when_the_connection_drops(proxy: Proxy) -> None:
    client = socketio.AsyncClient(reconnection_delay=0.05)
    app = fault_app(proxy.url, "polling", client, timeout=30)
    try:
        people = app.service("people")
        await people.find(query={"$limit": 1})
        await idle_async(app)
        proxy.hold()
        proxy.forget_sent()
        waiting = asyncio.ensure_future(people.find(query={"$limit": 1}))
        await asyncio.to_thread(proxy.wait_for_sent, b'"find"')
        proxy.drop()
        proxy.release()
        started = time.monotonic()
        with pytest.raises(Unavailable):
            await waiting
        # Well before the call's own timeout (30 s) and the server's ping timeout (20 s).
        assert time.monotonic() - started < 10
        assert isinstance(await people.find(query={"$limit": 1}), list)
    finally:
        await app.connection.aclose()


def test_close_during_a_polling_post_ends_the_session(proxy: Proxy) -> None:
    app = fault_app(proxy.url, "polling")
    people = app.service("people")
    people.find(query={"$limit": 1})
    idle(app)
    proxy.hold()
    proxy.forget_sent()
    with ThreadPoolExecutor(2) as pool:
        pool.submit(people.find, connection={"timeout": 5})
        proxy.wait_for_sent(b'"find"')
        closing = pool.submit(app.connection.close)
        eventually(lambda: app.connection.client.eio.state != "connected")
        proxy.forget_sent()
        proxy.release()
        # The close packet reaches the server, which ends the long poll: close() returns well
        # before the server's ping interval (25 s) would have.
        proxy.wait_for_sent(b"\x1e1")
        closing.result(10)


@TRANSPORTS
def test_a_refused_handshake_raises_the_servers_error(server_url: str, transport: str) -> None:
    app = fault_app(server_url, transport, headers={"Authorization": "Bearer not-a-token"})
    try:
        with pytest.raises(NotAuthenticated, match="jwt malformed") as refused:
            app.service("people").find()
        assert refused.value.code == 401
    finally:
        app.connection.close()

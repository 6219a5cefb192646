"""The Python client over socket.io, against our own server (uvicorn on loopback, in a thread)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
import socketio

from django_services.client import App, TimeoutConfig, authentication_client, socketio_client
from django_services.errors import (
    BadRequest,
    MethodNotAllowed,
    NotAuthenticated,
    NotFound,
    Timeout,
    Unavailable,
)
from tests.server.socketio.conftest import (  # noqa: F401 (fixtures)
    EMAIL,
    PASSWORD,
    LiveSocketServer,
    live_socket_server,
    services_settings,
    user,
)
from tests.waiting import eventually, eventually_async

USER = pytest.mark.usefixtures("user")

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHER = "tests.interop.conformance.realtime.ConformancePublisher"
LOGIN = {"strategy": "local", "email": EMAIL, "password": PASSWORD}


@pytest.fixture
def publishing(services_settings, settings):  # noqa: F811
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}


@pytest.fixture
def server(publishing, transactional_db):
    server = LiveSocketServer()
    server.start()
    yield server
    server.stop()


def sync_app(url, **options):
    connection = socketio_client(url, options=options or None)
    app = App().configure(connection).configure(authentication_client())
    app.use("todos", connection.service("todos"), methods=["find", "create", "markAllComplete"])
    return app


def socket_threads():
    # The server runs in this process too: its event loop's executor threads, its pool for
    # socket calls and its thread writing recovery sessions are its own.
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread()
        and t.is_alive()
        and not t.name.startswith(("asyncio_", "socketio-call", "socketio-sessions"))
    ]


def test_every_method_and_the_errors_over_a_sync_socket(server):
    app = sync_app(server.url)
    try:
        people = app.service("people")
        ada = people.create({"name": "Ada", "age": 36})
        assert people.get(ada["id"]) == ada
        assert people.get(str(ada["id"]))["name"] == "Ada"
        assert people.find(query={"name": "Ada"}) == [ada]
        assert people.find(query={"id": {"$in": []}}) == []
        assert people.update(ada["id"], {"name": "Ada L", "age": 37})["age"] == 37
        assert people.patch(ada["id"], {"age": 38})["age"] == 38
        assert people.remove(ada["id"])["name"] == "Ada L"
        with pytest.raises(NotFound) as missing:
            people.get(424242)
        assert missing.value.code == 404
        assert "424242" in missing.value.message
        with pytest.raises(BadRequest, match=r"id for .update. is required"):
            people.update(None, {"name": "x"})
        with pytest.raises(NotFound, match="Service 'nowhere' not found"):
            app.service("nowhere").find()
        with pytest.raises(NotAuthenticated):
            app.service("secrets").find()
        assert app.service("todos").markAllComplete({}) == {"updated": 0}
        app.use("people-x", app.connection.service("people"), methods=["find", "shout"])
        with pytest.raises(MethodNotAllowed, match="Method 'shout' not allowed"):
            app.service("people-x").shout({})
    finally:
        app.connection.close()


@USER
def test_authentication_goes_over_the_socket_and_survives_a_reconnect(server):
    app = sync_app(server.url)
    try:
        result = app.authenticate(LOGIN)
        assert result["user"]["email"] == EMAIL
        assert app.service("secrets").find() is not None
        seen = []
        app.service("people").on("created", seen.append)
        # The transport drops (the socket's engine closes under it): python-socketio reconnects
        # with backoff, and the connection logs the new socket in before other calls.
        app.connection.client.eio.ws.close()
        eventually(lambda: not app.connection.client.connected)
        made = app.service("people").create({"name": "after"})
        assert app.service("secrets").find() is not None
        eventually(lambda: made in seen)
        # The server recovers the session: the handlers get the data alone, once, and the
        # connection says it was recovered.
        assert seen == [made]
        assert app.connection.recovered is True and app.connection.recovery.pid is not None
        app.logout()
        with pytest.raises(NotAuthenticated):
            app.service("secrets").find()
    finally:
        app.connection.close()


@USER
def test_events_on_off_once_and_custom_events(server):
    app = sync_app(server.url)
    try:
        app.authenticate(LOGIN)
        people, todos = app.service("people"), app.service("todos")
        every, first, threads, custom = [], [], [], []

        def record(person):
            every.append(person)
            threads.append(threading.current_thread())

        people.on("created", record).once("created", first.append)
        todos.on("markedAllComplete", custom.append)
        a = people.create({"name": "A"})
        b = people.create({"name": "B"})
        todos.create({"text": "t", "complete": False})
        todos.markAllComplete({})
        eventually(lambda: len(every) == 2 and custom)
        assert every == [a, b]  # in the order the server sent them
        assert first == [a]
        assert custom == [{"updated": 1}]
        assert threading.main_thread() not in threads
        people.off("created", record)
        # The barrier: once a handler subscribed now has seen both later events, they have
        # been handed to every handler there is, and the removed one was not among them.
        later = []
        people.on("created", later.append)
        people.create({"name": "C"})
        people.create({"name": "D"})
        eventually(lambda: len(later) == 2)
        assert len(every) == 2
    finally:
        app.connection.close()


@USER
def test_a_sync_iterator_yields_events(server):
    app = sync_app(server.url)
    try:
        app.authenticate(LOGIN)
        with app.service("people").events("created", timeout=5) as stream:
            writer = threading.Timer(0.3, lambda: app.service("people").create({"name": "it"}))
            writer.start()
            event = next(stream)
            writer.join()
        assert (event.path, event.name, event.data["name"]) == ("people", "created", "it")
        # Unsubscribed: later events are not queued. A stream opened after it gets the later
        # event; handlers run in the order they subscribed, so had the first stream still been
        # subscribed, the event would be in its queue by then.
        with app.service("people").events("created", timeout=5) as barrier:
            app.service("people").create({"name": "later"})
            assert next(barrier).data["name"] == "later"
        assert stream.arrived.empty()
    finally:
        app.connection.close()


RELEASED = threading.Event()


def held_until_released(context):
    """A before hook: the server answers only once the test releases the call."""
    RELEASED.wait(30)


def test_a_call_times_out_with_a_typed_error(server, settings):
    app = sync_app(server.url)
    try:
        people = app.service("people")
        assert people.find() == []
        unhooked = settings.DJANGO_SERVICES
        settings.DJANGO_SERVICES = {
            **unhooked,
            "HOOKS": {"before": {"find": [f"{__name__}.held_until_released"]}},
        }
        RELEASED.clear()
        try:
            with pytest.raises(Timeout, match="Timed out waiting for find on 'people'"):
                people.find(connection={"timeout": 0.2})
        finally:
            RELEASED.set()
        settings.DJANGO_SERVICES = unhooked
        # The socket is still usable: the late answer is dropped.
        assert people.find() == []
    finally:
        app.connection.close()


@USER
def test_a_call_while_the_server_is_down_waits_then_the_restarted_server_logs_it_in(server):
    app = sync_app(server.url, timeout=TimeoutConfig(connect=2, read=1))
    try:
        app.authenticate(LOGIN)
        server.stop()
        eventually(lambda: not app.connection.client.connected)
        started = time.monotonic()
        with pytest.raises(Unavailable, match="connection is down"):
            app.service("people").find()
        assert 0.9 < time.monotonic() - started < 5
        restarted = LiveSocketServer(port=server.port).start()
        try:
            # Reconnected with backoff, and logged in again before this call was sent.
            eventually(lambda: app.connection.client.connected, timeout=15)
            assert app.service("secrets").find(connection={"timeout": 5}) is not None
        finally:
            restarted.stop()
    finally:
        app.connection.close()


def test_close_leaves_no_thread_and_no_socket(server):
    before = set(socket_threads())
    app = sync_app(server.url)
    app.service("people").find()
    assert set(socket_threads()) - before
    assert len(server.application.server.connections) == 1
    app.connection.close()
    # python-engineio's reader and writer end once the websocket's closing handshake is done
    # (websocket-client waits up to 3 s for the server's answer): on a loaded machine, later.
    try:
        eventually(lambda: not set(socket_threads()) - before, timeout=30)
    except AssertionError:
        raise AssertionError(set(socket_threads()) - before) from None
    eventually(lambda: not server.application.server.connections, timeout=5)


@USER
async def test_async_client_methods_handlers_and_iterator(server):
    connection = socketio_client(server.url, socketio.AsyncClient())
    app = App().configure(connection).configure(authentication_client())
    try:
        await app.authenticate(LOGIN)
        people = app.service("people")
        handled = asyncio.Event()
        got = []

        async def on_created(person):
            got.append(person)
            handled.set()

        people.on("created", on_created)
        async with people.events("created") as stream:
            made = await people.create({"name": "async"})
            event = await asyncio.wait_for(anext(stream), 5)
        await asyncio.wait_for(handled.wait(), 5)
        assert event.data == made and got == [made]
        assert await people.get(made["id"]) == made
        with pytest.raises(NotFound):
            await people.get(424242)
        assert await app.service("secrets").find() is not None
    finally:
        await connection.aclose()


@USER
async def test_the_async_client_logs_in_again_after_a_reconnect(server):
    client = socketio.AsyncClient(reconnection_delay=0.1)
    connection = socketio_client(server.url, client, options={"timeout": 5})
    app = App().configure(connection).configure(authentication_client())
    try:
        await app.authenticate(LOGIN)
        sid = client.sid
        await client.eio.ws.close()  # the transport drops; python-socketio reconnects
        await eventually_async(lambda: not client.connected or client.sid != sid)
        assert await app.service("secrets").find() is not None
        assert len(server.application.server.connections) == 1
    finally:
        await connection.aclose()

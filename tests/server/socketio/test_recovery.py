"""
socket.io's connection state recovery: a connection lost and made again with its `pid` and last
offset gets the events it missed, in order, once, before newer ones, with its channels and its
login, as long as that login still holds.
"""

from __future__ import annotations

import asyncio
import datetime
import types

import pytest
import socketio
from asgiref.sync import sync_to_async
from django.db import connection as database

from django_services import clock
from django_services.models import SocketSession
from django_services.server.socketio import sessions
from django_services.server.socketio.offsets import Offsets
from django_services.server.socketio.recovery import Recovery
from django_services.server.socketio.workers import CallWorkers
from tests.client.proxy import Proxy
from tests.other_connections import table_write_held
from tests.server.socketio.conftest import Client
from tests.server.socketio.test_channels import PUBLISHER, barrier, logged_in
from tests.waiting import eventually_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]


@pytest.fixture
def publishing(services_settings, settings):
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}


@pytest.fixture
def proxy(live_socket_server):
    proxy = Proxy(live_socket_server.url).start()
    yield proxy
    proxy.stop()


@pytest.fixture
async def through(proxy, transport):
    """`await through(auth=None)`: a client connected through the proxy."""
    clients: list[Client] = []

    async def open_client(headers=None, auth=None) -> Client:
        client = Client(proxy.url, transport)
        clients.append(client)
        return await client.connect(headers, auth)

    yield open_client
    for client in clients:
        await client.close()


def people(client: Client) -> list[str]:
    return [data["name"] for event, data in client.events if event == "people created"]


async def lose(client: Client, proxy: Proxy, live_socket_server) -> None:
    """Drop the client's connection in the network, and wait until both ends saw it go."""
    server = live_socket_server.application.server
    sid = client.sio.get_sid()
    proxy.drop()
    await eventually_async(lambda: client.disconnected.is_set(), message="the client saw it")
    if client.transport == "websocket":
        await eventually_async(lambda: sid not in server.connections, message="the server saw it")


async def lost_once_up_to_date(connect, through, proxy, live_socket_server):
    """
    A writer, and ada logged in through the proxy, her connection lost once she had every event
    so far: (the writer, ada's user record, her pid and her last offset).
    """
    writer, _ = await logged_in(connect, "writer@example.com")
    ada, user = await logged_in(through, "ada@example.com")
    await barrier(writer, [ada])
    pid, offset = ada.pid, ada.offsets[-1]
    await lose(ada, proxy, live_socket_server)
    return writer, user, pid, offset


async def test_a_connection_answered_with_a_pid_gets_an_offset_with_every_event(
    publishing, connect
):
    writer, _ = await logged_in(connect, "writer@example.com")

    await barrier(writer, [writer])

    assert writer.pid and len(writer.pid) >= 32
    assert writer.offsets and all(offset for offset in writer.offsets)


async def test_a_lost_connection_gets_what_it_missed_in_order_once_then_newer_events(
    publishing, connect, through, proxy, live_socket_server
):
    writer, _, pid, offset = await lost_once_up_to_date(connect, through, proxy, live_socket_server)
    for name in ("gap-1", "gap-2", "gap-3"):
        await writer.call("create", "people", {"name": name}, {})
    again = await through(auth={"pid": pid, "offset": offset})
    await barrier(writer, [again])

    assert again.pid == pid  # recovered: socket.io-client's `socket.recovered`
    assert people(again) == ["gap-1", "gap-2", "gap-3", "barrier"]
    # Its login came back with it: a call needing it succeeds.
    assert [user["email"] for user in await again.call("find", "users", {})] == ["ada@example.com"]


@pytest.mark.parametrize(
    "table",
    [
        pytest.param("testapp_user", id="its-login-unchecked"),
        pytest.param("testapp_person", id="its-missed-events-unchecked"),
    ],
)
async def test_a_recovery_refused_while_the_database_is_away_succeeds_at_the_next_try(
    publishing, connect, through, proxy, live_socket_server, transport, table
):
    if database.vendor != "sqlite":
        pytest.skip("a write fails other connections' reads of its table on SQLite's shared cache")
    writer, _, pid, offset = await lost_once_up_to_date(connect, through, proxy, live_socket_server)
    await writer.call("create", "people", {"name": "gap"}, {})

    # Its login, or the read rule of the `people` events it missed, can not be checked (their
    # table is locked): a CONNECT_ERROR, 503.
    refused = Client(proxy.url, transport)
    refusals = []
    refused.sio.on("connect_error", lambda data=None: refusals.append(data))
    async with table_write_held(table):
        with pytest.raises(socketio.exceptions.ConnectionError):
            await refused.connect(auth={"pid": pid, "offset": offset})
    await refused.close()
    assert len(refusals) == 1
    assert refusals[0]["message"].startswith("The database is busy")
    assert (refusals[0]["data"]["code"], refusals[0]["data"]["className"]) == (503, "unavailable")
    server = live_socket_server.application.server
    assert list(server.connections) == [writer.sio.get_sid()]

    again = await through(auth={"pid": pid, "offset": offset})
    await barrier(writer, [again])

    assert again.pid == pid
    assert people(again) == ["gap", "barrier"]
    assert [user["email"] for user in await again.call("find", "users", {})] == ["ada@example.com"]


async def test_a_client_that_received_no_event_yet_recovers_with_its_pid_alone(
    publishing, connect, through, proxy, live_socket_server
):
    writer, _ = await logged_in(connect, "writer@example.com")
    quiet = await through()
    pid = quiet.pid
    await lose(quiet, proxy, live_socket_server)

    await writer.call("create", "people", {"name": "unseen"}, {})
    again = await through(auth={"pid": pid})
    await barrier(writer, [writer])

    assert again.pid == pid
    # Anonymous: its channels hold none of the logged-in events, before or after.
    assert people(again) == []


async def test_a_login_ended_during_the_gap_gets_none_of_the_gap_s_private_events(
    publishing, connect, through, proxy, live_socket_server
):
    writer, user, pid, offset = await lost_once_up_to_date(
        connect, through, proxy, live_socket_server
    )

    await writer.call("create", "people", {"name": "private to the logged-in"}, {})
    await sync_to_async(_deactivate)(user["id"])
    again = await through(auth={"pid": pid, "offset": offset})
    await barrier(writer, [writer])

    assert again.pid == pid
    assert people(again) == []
    assert (await again.error("find", "users", {}))["code"] == 401


def _deactivate(pk: int) -> None:
    from tests.testapp.models import User

    user = User.objects.get(pk=pk)
    user.is_active = False
    user.save()


async def test_a_disconnect_the_client_asked_for_is_not_recovered(
    publishing, connect, through, live_socket_server
):
    ada, _ = await logged_in(through, "ada@example.com")
    pid = ada.pid
    server = live_socket_server.application.server
    sid = ada.sio.get_sid()
    await ada.sio.disconnect()
    await eventually_async(lambda: sid not in server.connections, message="gone")

    again = await through(auth={"pid": pid, "offset": "0"})

    assert again.pid and again.pid != pid


async def test_a_connection_lost_longer_than_the_window_ago_connects_afresh(
    publishing, connect, through, proxy, live_socket_server, transport
):
    if transport == "polling":
        pytest.skip("the server sees a lost long-poll at its ping timeout only")
    ada, _ = await logged_in(through, "ada@example.com")
    pid = ada.pid
    await lose(ada, proxy, live_socket_server)
    late = clock.now() - datetime.timedelta(seconds=121)
    await sync_to_async(SocketSession.objects.update)(lost_at=late)

    again = await through(auth={"pid": pid, "offset": "0"})

    assert again.pid and again.pid != pid


@pytest.mark.parametrize(
    "auth",
    [
        {"pid": 42},
        {"pid": "x" * 10_000},
        {"pid": "unknown"},
        {"offset": "12"},
        {"pid": None, "offset": None},
    ],
)
async def test_a_bad_or_unknown_recovery_connects_afresh(publishing, through, auth):
    client = await through(auth=auth)

    assert client.pid is not None and client.pid != auth


@pytest.mark.parametrize("offset", ["", "abc", "12~", "12~13", "5~1-3000", 12, None, "9" * 40])
async def test_an_offset_that_is_not_ours_connects_afresh(
    publishing, through, proxy, live_socket_server, offset
):
    ada, _ = await logged_in(through, "ada@example.com")
    pid = ada.pid
    await lose(ada, proxy, live_socket_server)

    again = await through(auth={"pid": pid, "offset": offset})

    assert again.pid and again.pid != pid


@pytest.fixture
def only_an_old_event_logged(publishing, settings):
    """The log holds one event older than the window, pruned before the server starts."""
    from django_services.models import LoggedEvent
    from django_services.server.socketio.event_log import prune

    window = settings.DJANGO_SERVICES.get("SOCKETIO_RECOVERY", {}).get("WINDOW", 120)
    LoggedEvent.objects.create(
        logged_at=clock.now() - datetime.timedelta(seconds=2 * window),
        path="people",
        event="created",
        data={"id": 1, "name": "long ago"},
        channels=[{"names": ["authenticated"]}],
        read=None,
    )
    prune()


async def test_a_quiet_client_recovers_with_its_pid_alone_after_the_log_was_pruned(
    only_an_old_event_logged, connect, through, proxy, live_socket_server
):
    # Every event of the log was older than the window: what a client connecting now is
    # owed is still measured from where the log ends.
    quiet = await through()
    pid = quiet.pid
    writer, _ = await logged_in(connect, "writer@example.com")
    await lose(quiet, proxy, live_socket_server)

    await writer.call("create", "people", {"name": "unseen"}, {})
    again = await through(auth={"pid": pid})
    await barrier(writer, [writer])

    assert again.pid == pid


async def test_a_session_s_writes_are_applied_in_the_order_they_were_made():
    # Sockets that connect and leave at once: each stores its session, then forgets it
    # (a disconnect the client asked for). Were the writes applied out of order, a forgotten
    # session would stay behind, recoverable by whoever holds its id.
    workers = CallWorkers(threads=8)
    recovery = Recovery(None, None, workers, {})
    connection = types.SimpleNamespace(user=None, authentication=None, session_key=None)
    try:
        pids = [sessions.new_pid() for _ in range(40)]
        writes = []
        for pid in pids:
            writes.append(recovery._store(sessions.save, pid, connection, ["anonymous"], Offsets()))
            writes.append(recovery._store(sessions.forget, pid))
        await asyncio.gather(*writes)
        assert await sync_to_async(SocketSession.objects.count)() == 0
    finally:
        workers.shutdown()

"""
The read rule of service events when the database fails a check for a moment: the event is
not sent then, but once the database answers, from the log's tail, to each reader once.

On SQLite's shared-cache test database, a write held uncommitted in another thread fails the
other connections' reads of its table ("database table is locked"): a transient error.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connection as database

from django_services.server.socketio import channel
from django_services.server.socketio.event_log import channels_json
from tests.other_connections import table_write_held
from tests.server.socketio.conftest import PASSWORD
from tests.server.socketio.read_services import SERVICES
from tests.server.socketio.test_channels import barrier
from tests.server.socketio.test_reads import PUBLISHER, STAFF, logged_in
from tests.waiting import eventually_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]


@pytest.fixture
def tailing_on_demand(services_settings, settings):
    """The read rule's services, and the log's tail read when woken only; on SQLite only."""
    if database.vendor != "sqlite":
        pytest.skip("a write fails other connections' reads of its table on SQLite's shared cache")
    settings.DJANGO_SERVICES = {
        **services_settings,
        "SERVICES": {**services_settings["SERVICES"], **SERVICES},
        "SOCKETIO_PUBLISHER": PUBLISHER,
        "SOCKETIO_RECOVERY": {"POLL_INTERVAL": 3600},
    }


@pytest.fixture(params=("websocket", "polling"))
def transport(request) -> str:
    return request.param


@pytest.fixture
def staff_user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=STAFF, password=PASSWORD, is_staff=True)


async def test_an_event_whose_read_check_meets_a_locked_table_arrives_once_the_database_answers(
    tailing_on_demand, connect, live_socket_server
):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    note = await ada.call("create", "notes", {"text": "draft"}, {})
    await barrier(ada, [ada])
    patched = {**note, "text": "final"}
    offset = await sync_to_async(_log_again)("notes", "patched", patched)
    server = live_socket_server.application.server

    await _tail_while_locked(server, "testapp_note", offset)
    assert ("notes patched", patched) not in ada.events

    server.loop.call_soon_threadsafe(server.events.tailer.wake)
    await eventually_async(lambda: ("notes patched", patched) in ada.events, message="sent")
    await barrier(ada, [ada])

    assert ada.events.count(("notes patched", patched)) == 1


async def test_an_event_reaches_no_channel_while_the_read_check_of_another_fails(
    tailing_on_demand, staff_user, connect, live_socket_server
):
    # Staff, in its own channel first, is checked without the users' table; Ada, in the
    # second, is checked with it (`StillActive`): a locked users' table fails her check only.
    staff, _, _ = await logged_in(connect, STAFF, staff=True)
    ada, _, _ = await logged_in(connect, "ada@example.com")
    note = await staff.call("create", "active-notes", {"text": "for all"}, {})
    await barrier(staff, [staff, ada])
    for_staff, for_ada = {**note, "for": "staff"}, {**note, "for": "everyone"}
    chosen = [
        channel(f"users/{staff_user.pk}").send(for_staff),
        channel("authenticated").send(for_ada),
    ]
    offset = await sync_to_async(_log_again)("active-notes", "patched", note, chosen)
    server = live_socket_server.application.server

    await _tail_while_locked(server, "testapp_user", offset)
    # Sent again once the database answers (the barrier's own event looks for it below).
    server.loop.call_soon_threadsafe(server.events.tailer.wake)
    await eventually_async(lambda: ("active-notes patched", for_ada) in ada.events, message="sent")
    await barrier(staff, [staff, ada])

    assert staff.events.count(("active-notes patched", for_staff)) == 1
    assert ada.events.count(("active-notes patched", for_ada)) == 1
    assert ("active-notes patched", for_ada) not in staff.events


async def _tail_while_locked(server, table, offset):
    """Wake the log's tail while `table` is locked, until it failed to send `offset`."""
    tailer = server.events.tailer
    async with table_write_held(table):
        server.loop.call_soon_threadsafe(tailer.wake)
        # Its check failed, twice: not sent, left to the tail, which has it still to send.
        await eventually_async(lambda: offset in tailer.delivered.missing, message="tried")


def _log_again(path, event, data, chosen=None):
    """
    An event of `path` logged as its last one was (its channels unless `chosen`, its read
    rule), never sent.
    """
    from django_services import clock
    from django_services.models import LoggedEvent

    last = LoggedEvent.objects.filter(path=path).latest("id")
    row = LoggedEvent.objects.create(
        logged_at=clock.now(),
        path=path,
        event=event,
        data=data,
        channels=last.channels if chosen is None else channels_json(chosen),
        read={**last.read, "id": data["id"]},
    )
    return row.id

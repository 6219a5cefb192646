"""
Every socket.io process tails the event log: an event a dead process committed but never sent
is delivered, every event exactly once per process, in id order, gaps waited for a moment.
"""

from __future__ import annotations

import asyncio

import pytest
import socketio
from django.core.management.color import no_style
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from django_services import clock
from django_services.models import LoggedEvent
from django_services.server.socketio import fanout
from django_services.server.socketio.publishing import EventSender
from django_services.server.socketio.tailer import Delivered, log_end, read_rows
from django_services.server.socketio.workers import CallWorkers
from tests.other_connections import transaction_held_async
from tests.server.socketio.test_channels import PUBLISHER, barrier, logged_in
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def publishing(services_settings, settings):
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}


def orphan(name):
    """A `people created` event committed with its write, by a process that died before sending."""
    with transaction.atomic():
        row = LoggedEvent.objects.create(
            logged_at=clock.now(),
            path="people",
            event="created",
            data={"id": 10_000, "name": name},
            channels=[{"names": ["authenticated"]}],
            read=None,
        )
    return row


def orphan_elsewhere(name):
    """`orphan()` in a thread of its own, whose connection is closed after."""
    try:
        return orphan(name)
    finally:
        connections.close_all()


async def started(live_socket_server):
    server = live_socket_server.application.server
    await eventually_async(lambda: server.events.tailer._task is not None, message="tailing")
    done = asyncio.run_coroutine_threadsafe(server.events.tailer.ready(), server.loop)
    await asyncio.wrap_future(done)


async def test_an_event_its_process_never_sent_is_delivered_from_the_log(
    publishing, connect, live_socket_server
):
    ada, _ = await logged_in(connect, "ada@example.com")
    await started(live_socket_server)

    await asyncio.to_thread(orphan_elsewhere, "Lost")
    live_socket_server.application.server.loop.call_soon_threadsafe(
        live_socket_server.application.server.events.tailer.wake
    )
    await eventually_async(
        lambda: ("people created", {"id": 10_000, "name": "Lost"}) in ada.events,
        message="the logged event arrives",
    )
    await barrier(ada, [ada])

    names = [data.get("name") for event, data in ada.events if event == "people created"]
    assert names.count("Lost") == 1
    assert names[-1] == "barrier"


async def test_a_live_event_is_not_delivered_again_by_the_tailer(
    publishing, connect, live_socket_server
):
    ada, _ = await logged_in(connect, "ada@example.com")
    await started(live_socket_server)
    server = live_socket_server.application.server

    person = await ada.call("create", "people", {"name": "Once"}, {})
    for _ in range(3):
        server.loop.call_soon_threadsafe(server.events.tailer.wake)
        await asyncio.sleep(0)
    await barrier(ada, [ada])
    server.loop.call_soon_threadsafe(server.events.tailer.wake)
    await barrier(ada, [ada])

    assert ada.events.count(("people created", person)) == 1


async def test_an_event_committed_before_a_live_one_and_not_come_yet_goes_first(
    publishing, connect, live_socket_server
):
    # Another process committed an event (its Redis message still on its way, or lost) before
    # this process's write: a record created there and patched here is heard in that order.
    ada, _ = await logged_in(connect, "ada@example.com")
    await started(live_socket_server)

    await asyncio.to_thread(orphan_elsewhere, "Earlier")
    person = await ada.call("create", "people", {"name": "Later"}, {})
    await barrier(ada, [ada])

    names = [data.get("name") for event, data in ada.events if event == "people created"]
    assert names == ["Earlier", "Later", "barrier"]
    assert ada.events.count(("people created", person)) == 1


def test_one_select_reads_a_batch_of_events():
    for index in range(5):
        orphan(f"P{index}")

    with CaptureQueriesContext(connection) as queries:
        rows = read_rows(0, [2, 3])

    assert [row["id"] for row in rows] == sorted(row["id"] for row in rows)
    assert len(rows) == 5
    assert len(queries) == 1 and queries[0]["sql"].startswith("SELECT")


class TestDelivered:
    def test_each_offset_is_claimed_once(self):
        delivered = Delivered(top=10)

        assert delivered.claim(11) is True
        assert delivered.claim(11) is False
        assert delivered.claim(9) is False  # delivered already

    def test_a_gap_holds_the_rows_above_it_for_the_grace_only(self):
        delivered = Delivered(top=10)
        delivered.note_missing(13, now=100.0)  # 11 and 12 not visible yet

        assert delivered.held(13, now=100.2, grace=0.5)
        assert not delivered.held(13, now=100.6, grace=0.5)

    def test_a_late_row_below_the_top_is_still_delivered_once(self):
        delivered = Delivered(top=10)
        assert delivered.claim(12, now=100.0)
        assert delivered.offsets().encode() == "12~11"

        assert delivered.claim(11) is True  # it committed late: still delivered
        assert delivered.claim(11) is False
        assert delivered.missing == {}
        assert delivered.offsets().encode() == "12"

    def test_gaps_are_given_up_after_the_window(self):
        delivered = Delivered(top=10)
        delivered.claim(12, now=100.0)

        delivered.forget(now=300.0, window=120)

        assert delivered.missing == {}
        assert delivered.claim(11) is False


async def test_a_row_committed_late_is_delivered_after_the_later_ones_once(
    publishing, connect, live_socket_server
):
    if connection.vendor == "sqlite":
        pytest.skip("the in-memory SQLite test database locks a table another connection writes")
    ada, _ = await logged_in(connect, "ada@example.com")
    await started(live_socket_server)
    server = live_socket_server.application.server
    async with transaction_held_async(lambda: orphan("Late")):
        await asyncio.to_thread(orphan_elsewhere, "Early")  # a higher id, committed first
        server.loop.call_soon_threadsafe(server.events.tailer.wake)
        # Held back a moment for the missing id, then sent: the poll after the grace.
        await eventually_async(
            lambda: ("people created", {"id": 10_000, "name": "Early"}) in ada.events,
            message="the later row arrives after the grace",
        )
    server.loop.call_soon_threadsafe(server.events.tailer.wake)
    await eventually_async(
        lambda: ("people created", {"id": 10_000, "name": "Late"}) in ada.events,
        message="the late row arrives when it commits",
    )
    await barrier(ada, [ada])

    names = [data["name"] for event, data in ada.events if event == "people created"]
    assert names == ["Early", "Late", "barrier"]


def logged(row_id, name):
    """A `people created` event logged under `row_id`, in a thread of its own."""

    def write():
        try:
            with transaction.atomic():
                LoggedEvent.objects.create(
                    id=row_id,
                    logged_at=clock.now(),
                    path="people",
                    event="created",
                    data={"id": row_id, "name": name},
                    channels=[{"names": ["authenticated"]}],
                    read=None,
                )
        finally:
            connections.close_all()

    return asyncio.to_thread(write)


@pytest.fixture
def log_with_a_gap(publishing):
    """Rows 900001 and 900003 logged before the server starts; 900002 still committing."""
    for row_id, name in [(900_001, "Before"), (900_003, "Above the gap")]:
        asyncio.run(logged(row_id, name))
    # The ids the server's own writes take come after them, as they would.
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [LoggedEvent]):
            cursor.execute(sql)


async def test_a_row_still_committing_when_the_process_starts_is_delivered_when_it_commits(
    log_with_a_gap, connect, live_socket_server
):
    # Another process's write took id 900002 before 900003 and commits after this process
    # started tailing: it is this process's to deliver, though the log's end was above it.
    ada, _ = await logged_in(connect, "ada@example.com")
    await started(live_socket_server)
    server = live_socket_server.application.server

    await logged(900_002, "Committed late")
    server.loop.call_soon_threadsafe(server.events.tailer.wake)
    await eventually_async(
        lambda: ("people created", {"id": 900_002, "name": "Committed late"}) in ada.events,
        message="the late row arrives",
    )
    await barrier(ada, [ada])

    names = [data.get("name") for event, data in ada.events if event == "people created"]
    assert names == ["Committed late", "barrier"]


class CommitAfterTheLogEnd(CallWorkers):
    """
    A socket server's call threads, during whose start another process commits a logged event
    right after this one read where the log ends: the tailer's first read then finds it.
    """

    def __init__(self) -> None:
        super().__init__(threads=2)
        self.committed: list[LoggedEvent] = []

    async def run(self, slots, function, *args):
        result = await super().run(slots, function, *args)
        if function is log_end and not self.committed:
            self.committed.append(await asyncio.to_thread(orphan_elsewhere, "Meanwhile"))
        return result


async def test_a_row_committed_as_the_tailer_starts_is_delivered_and_the_start_completes(
    publishing,
):
    # The server accepts no connection before its tailer is ready: a tailer whose first read
    # delivers a row must not wait for its own readiness (a process started while others
    # write would never listen).
    workers = CommitAfterTheLogEnd()
    sender = EventSender(socketio.AsyncServer(client_manager=fanout.Manager()), {}, workers)
    sender.tailer.start()
    try:
        await asyncio.wait_for(sender.tailer.ready(), timeout=10)
        row = workers.committed[0]
        await eventually_async(
            lambda: sender.tailer.delivered.top == row.id, message="the row is delivered"
        )
        assert not sender.tailer.delivered.is_new(row.id)
    finally:
        await sender.tailer.stop()
        workers.shutdown()

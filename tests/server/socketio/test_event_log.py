"""
The event log: each published service event is written in its write's transaction, with the
channels and read rule its delivery needs; nothing on rollback; pruned by age and by size.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from django_services import clock
from django_services.errors import BadRequest
from django_services.models import LoggedEvent
from django_services.server import Params, get_service
from django_services.server.pipeline.events import event_bus
from django_services.server.socketio import Publisher, channel
from django_services.server.socketio.event_log import prune
from tests.server.http import body, send
from tests.server.pipeline_services import EventfulPeople
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db(transaction=True)

P = "tests.server.pipeline_services."
HERE = "tests.server.socketio.test_event_log."

asked: list[str] = []


class LogPublisher(Publisher):
    """Every event to `authenticated`; a birthday also to `admins` with data of its own."""

    def publish(self, event):
        asked.append(f"{event.path} {event.event}")
        if event.event == "birthday":
            return [channel("authenticated"), channel("admins").send({"birthday": True})]
        if event.data.get("name") == "Nobody":
            return None
        return channel("authenticated")


def refuse_after_the_write(context):
    """An after hook that fails once the record is written (a check made after the write)."""
    if context.result.get("name") == "Refused":
        raise BadRequest("Refused after the write")


class CheckedAfterPeople(EventfulPeople):
    hooks = {"after": {"create": [refuse_after_the_write]}}


@pytest.fixture
def people(serve):
    asked.clear()
    serve({"people": P + "EventfulPeople"}, SOCKETIO_PUBLISHER=HERE + "LogPublisher")
    received = []
    event_bus.subscribe(received.append)
    yield get_service("people"), received
    event_bus.unsubscribe(received.append)


def logged():
    return list(LoggedEvent.objects.order_by("id").values("path", "event", "data", "channels"))


def test_a_write_logs_its_event_with_its_channels_and_read_rule(api, people):
    _, received = people

    created = body(send(api, "POST", "/people", {"name": "Ada", "age": 36}))

    row = LoggedEvent.objects.get()
    assert (row.path, row.event, row.data) == ("people", "created", created)
    assert row.channels == [{"names": ["authenticated"]}]
    # The read rule, as JSON, as the processes that deliver it answer it.
    assert row.read["path"] == "people" and row.read["id"] == created["id"]
    # The event published after commit is the logged one, its offset the row's id.
    assert [event.entry.offset for event in received] == [row.pk]
    assert asked == ["people created"]


def test_the_log_is_written_inside_the_write_s_transaction(people):
    service, _ = people
    _needs_concurrent_connections()

    with transaction.atomic():
        ada = service.create({"name": "Ada", "age": 36}, Params())
        assert logged()[0]["data"] == ada
        assert _rows_seen_elsewhere() == 0

    assert _rows_seen_elsewhere() == 1


@pytest.mark.parametrize("over", ["rest", "python"])
def test_a_call_s_write_and_its_event_commit_together_or_not_at_all(api, serve, over):
    # No transaction of the caller's: the call's own holds the write, its hooks and its
    # events' log row, so a failure after the write leaves neither the record nor the event.
    serve({"people": HERE + "CheckedAfterPeople"}, SOCKETIO_PUBLISHER=HERE + "LogPublisher")

    if over == "rest":
        response = send(api, "POST", "/people", {"name": "Refused", "age": 1})
        assert response.status_code == 400
        created = body(send(api, "POST", "/people", {"name": "Kept", "age": 2}))
    else:
        with pytest.raises(BadRequest):
            get_service("people").create({"name": "Refused", "age": 1}, Params())
        created = get_service("people").create({"name": "Kept", "age": 2}, Params())

    assert list(Person.objects.values_list("name", flat=True)) == ["Kept"]
    assert [row["data"] for row in logged()] == [created]


def test_a_rolled_back_write_logs_and_publishes_nothing(people):
    service, received = people

    with pytest.raises(RuntimeError), transaction.atomic():
        service.create({"name": "Ada", "age": 36}, Params())
        raise RuntimeError("changed my mind")

    assert logged() == []
    assert received == []


@pytest.mark.parametrize("use_tz", [True, False])
def test_an_event_is_logged_at_the_clock_s_time_with_or_without_time_zones(
    api, people, settings, use_tz
):
    settings.USE_TZ = use_tz
    with clock.replaced(clock.ManualClock(1_700_000_000.25)):
        send(api, "POST", "/people", {"name": "Ada", "age": 36})
        expected = clock.now()

    assert LoggedEvent.objects.get().logged_at == expected


def test_a_multi_write_logs_its_events_in_order_in_one_insert(api, people):
    with CaptureQueriesContext(connection) as queries:
        created = body(
            send(api, "POST", "/people", [{"name": "A", "age": 1}, {"name": "B", "age": 2}])
        )

    inserts = [q for q in queries if "INSERT" in q["sql"] and "loggedevent" in q["sql"]]
    assert len(inserts) == 1
    assert [row["data"] for row in logged()] == created


def test_custom_events_and_channel_data_are_logged(api, people):
    _ = people
    ada = Person.objects.create(name="Ada", age=36)

    send(api, "POST", "/people", {"id": ada.pk}, HTTP_X_SERVICE_METHOD="celebrate")

    assert logged() == [
        {
            "path": "people",
            "event": "birthday",
            "data": {"id": ada.pk, "age": 37},
            "channels": [
                {"names": ["authenticated"]},
                {"names": ["admins"], "data": {"birthday": True}},
            ],
        }
    ]
    assert asked == ["people birthday"]


def test_an_event_published_to_nobody_is_not_logged(people):
    service, received = people

    service.create({"name": "Nobody", "age": 1}, Params())

    assert logged() == []
    assert received[0].entry.offset is None and received[0].entry.channels == []


def test_without_a_publisher_nothing_is_logged(api, serve):
    serve({"people": P + "EventfulPeople"})

    send(api, "POST", "/people", {"name": "Ada", "age": 36})

    assert logged() == []


def test_concurrent_writes_each_log_their_event_once(people):
    _, received = people
    _needs_concurrent_connections()
    errors = []

    def write(index):
        try:
            response = send(APIClient(), "POST", "/people", {"name": f"P{index}", "age": index})
            assert response.status_code == 201
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    rows = list(LoggedEvent.objects.order_by("id"))
    assert sorted(row.data["age"] for row in rows) == list(range(8))
    assert sorted(event.entry.offset for event in received) == [row.pk for row in rows]


def _needs_concurrent_connections():
    if connection.vendor == "sqlite":
        pytest.skip("the in-memory SQLite test database locks a table another connection writes")


def _rows_seen_elsewhere():
    seen = []

    def look():
        try:
            seen.append(LoggedEvent.objects.count())
        finally:
            connections.close_all()

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    return seen[0]


class TestRetention:
    def test_events_older_than_the_window_are_pruned(self, people, settings):
        service, _ = people
        settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "SOCKETIO_RECOVERY": {"WINDOW": 60}}
        with clock.replaced(clock.ManualClock()) as manual:
            service.create({"name": "Old", "age": 1}, Params())
            manual.advance(30)
            service.create({"name": "Recent", "age": 2}, Params())
            manual.advance(31)

            assert prune() == 1

        assert [row["data"]["name"] for row in logged()] == ["Recent"]

    def test_the_newest_max_events_are_kept(self, people, settings):
        service, _ = people
        settings.DJANGO_SERVICES = {
            **settings.DJANGO_SERVICES,
            "SOCKETIO_RECOVERY": {"MAX_EVENTS": 2},
        }
        for age in range(5):
            service.create({"name": "P", "age": age}, Params())

        assert prune() == 3
        assert [row["data"]["age"] for row in logged()] == [3, 4]

    def test_a_write_prunes_now_and_then(self, people, settings):
        service, _ = people
        settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "SOCKETIO_RECOVERY": {"WINDOW": 60}}
        with clock.replaced(clock.ManualClock()) as manual:
            service.create({"name": "Old", "age": 1}, Params())
            manual.advance(61)
            service.create({"name": "New", "age": 2}, Params())

        assert [row["data"]["name"] for row in logged()] == ["New"]

    def test_a_clock_put_back_still_prunes(self, people, settings):
        # A write under a clock a day ahead leaves the next pruning a day away: a clock put
        # back (another one replaced) prunes at once instead of waiting for it.
        service, _ = people
        settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "SOCKETIO_RECOVERY": {"WINDOW": 60}}
        with clock.replaced(clock.ManualClock(clock.time() + 86_400)):
            service.create({"name": "Ahead", "age": 0}, Params())
        with clock.replaced(clock.ManualClock()) as manual:
            service.create({"name": "Old", "age": 1}, Params())
            manual.advance(61)
            service.create({"name": "New", "age": 2}, Params())

        # Pruned from the oldest id up: the row logged ahead goes with the old one after it.
        assert [row["data"]["name"] for row in logged()] == ["New"]

    def test_the_log_is_pruned_from_its_oldest_id_up(self, people, settings):
        # A row committed late with a lower id and a later time goes with the rows after it,
        # so that what is left starts right after what a reconnect may ask for.
        service, _ = people
        settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "SOCKETIO_RECOVERY": {"WINDOW": 60}}
        with clock.replaced(clock.ManualClock()) as manual:
            service.create({"name": "Late", "age": 0}, Params())
            service.create({"name": "Old", "age": 1}, Params())
            late = LoggedEvent.objects.order_by("id").first()
            ahead = clock.now() + timedelta(seconds=30)
            LoggedEvent.objects.filter(pk=late.pk).update(logged_at=ahead)
            manual.advance(61)

            assert prune() == 1

        # The newest row stays, however old: the log says where it ends.
        assert [row["data"]["name"] for row in logged()] == ["Old"]

    def test_the_newest_event_is_kept_however_old(self, people, settings):
        service, _ = people
        settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "SOCKETIO_RECOVERY": {"WINDOW": 60}}
        with clock.replaced(clock.ManualClock()) as manual:
            service.create({"name": "Older", "age": 0}, Params())
            service.create({"name": "Newest", "age": 1}, Params())
            manual.advance(61)

            assert prune() == 1
            assert prune() == 0

        assert [row["data"]["name"] for row in logged()] == ["Newest"]

    def test_the_command_prunes_and_says_how_many(self, people, settings):
        service, _ = people
        settings.DJANGO_SERVICES = {
            **settings.DJANGO_SERVICES,
            "SOCKETIO_RECOVERY": {"MAX_EVENTS": 1},
        }
        for age in range(3):
            service.create({"name": "P", "age": age}, Params())
        out = StringIO()

        call_command("prune_events", stdout=out)

        assert out.getvalue() == "Deleted 2 logged events.\n"
        assert [row["data"]["age"] for row in logged()] == [2]

"""Service events: after commit, one per record, none on rollback, custom ones, the bus."""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction

from django_services.server import Params, get_service
from django_services.server.pipeline.events import ServiceEvent, event_bus
from tests.server.http import body, send
from tests.testapp.models import Person

# Events wait for real commits: these tests commit (and clean the tables after).
pytestmark = pytest.mark.django_db(transaction=True)

P = "tests.server.pipeline_services."


class Listener:
    """Records what it receives, and whether the record was committed when it came."""

    def __init__(self):
        self.received = []
        self.committed = []

    def __call__(self, data, context):
        self.received.append((context.method, data))
        # Another connection sees only committed rows: the write is visible when the event comes.
        self.committed.append(_visible_elsewhere(data.get("id")))


def _visible_elsewhere(pk):
    """Whether another database connection (another thread) sees the person `pk`."""
    seen = []

    def look():
        try:
            seen.append(Person.objects.filter(pk=pk).exists())
        finally:
            connections.close_all()

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    return seen[0]


@pytest.fixture
def people(serve):
    serve({"people": P + "EventfulPeople"})
    service = get_service("people")
    listeners = {}
    for event in ("created", "updated", "patched", "removed", "birthday"):
        listeners[event] = Listener()
        service.on(event, listeners[event])
    yield service, listeners
    for event, listener in listeners.items():
        service.off(event, listener)


def test_each_write_over_http_emits_its_event_with_the_result(api, people):
    _, listeners = people

    created = body(send(api, "POST", "/people", {"name": "Ada", "age": 36}))
    updated = body(send(api, "PUT", f"/people/{created['id']}", {"name": "Ada L.", "age": 36}))
    patched = body(send(api, "PATCH", f"/people/{created['id']}", {"age": 37}))
    removed = body(send(api, "DELETE", f"/people/{created['id']}"))
    api.get("/people")
    api.get(f"/people/{created['id']}")

    assert listeners["created"].received == [("create", created)]
    assert listeners["updated"].received == [("update", updated)]
    assert listeners["patched"].received == [("patch", patched)]
    assert listeners["removed"].received == [("remove", removed)]
    assert listeners["created"].committed == [True]


def test_a_multi_write_emits_one_event_per_record(api, people):
    _, listeners = people

    created = body(send(api, "POST", "/people", [{"name": "A", "age": 1}, {"name": "B", "age": 2}]))
    patched = body(send(api, "PATCH", "/people?age[$lt]=5", {"age": 3}))
    removed = body(send(api, "DELETE", "/people"))

    assert [data for _, data in listeners["created"].received] == created
    assert [data["age"] for _, data in listeners["patched"].received] == [3, 3]
    assert [data for _, data in listeners["patched"].received] == patched
    assert [data for _, data in listeners["removed"].received] == removed
    assert len(removed) == 2


def test_events_wait_for_the_outer_transaction_to_commit(people):
    service, listeners = people

    with transaction.atomic():
        ada = service.create({"name": "Ada", "age": 36}, Params())
        assert listeners["created"].received == []

    assert listeners["created"].received == [("create", ada)]
    assert listeners["created"].committed == [True]


def test_a_rolled_back_write_emits_nothing(people):
    service, listeners = people

    with pytest.raises(RuntimeError), transaction.atomic():
        service.create({"name": "Ada", "age": 36}, Params())
        raise RuntimeError("changed my mind")

    assert listeners["created"].received == []
    assert not Person.objects.exists()


def test_a_failed_multi_write_emits_nothing(api, people):
    _, listeners = people

    response = send(api, "POST", "/people", [{"name": "Fine", "age": 1}, {"name": ""}])

    assert response.status_code == 400
    assert listeners["created"].received == []
    assert not Person.objects.exists()


def test_custom_events_are_emitted_after_commit(api, people):
    _, listeners = people
    ada = Person.objects.create(name="Ada", age=36)

    response = send(api, "POST", "/people", {"id": ada.pk}, HTTP_X_SERVICE_METHOD="celebrate")

    assert body(response) == {"id": ada.pk}
    assert listeners["birthday"].received == [("celebrate", {"id": ada.pk, "age": 37})]
    # A custom method emits no standard event.
    assert all(not listener.received for name, listener in listeners.items() if name != "birthday")


def test_undeclared_events_are_refused(people):
    service, _ = people
    with pytest.raises(ValueError, match="no event 'exploded'"):
        service.emit("exploded", {})
    with pytest.raises(ValueError, match="no event 'exploded'"):
        service.on("exploded", print)


def test_a_failing_listener_does_not_stop_the_others(people, caplog):
    service, listeners = people

    def broken(data, context):
        raise RuntimeError("listener bug")

    service.on("created", broken)
    try:
        ada = service.create({"name": "Ada", "age": 36}, Params())
    finally:
        service.off("created", broken)

    assert listeners["created"].received == [("create", ada)]
    assert "A listener of the 'created' event of the service 'people' failed." in caplog.text


def test_subscribers_receive_every_event_of_every_service(api, people):
    received = []
    event_bus.subscribe(received.append)
    try:
        created = body(send(api, "POST", "/people", {"name": "Ada", "age": 36}))
    finally:
        event_bus.unsubscribe(received.append)

    assert received == [ServiceEvent("people", "created", created)]
    assert received[0].context.provider == "rest"


def test_a_hook_may_silence_the_event(people, settings):
    _, listeners = people

    def silence(context):
        context.event = None

    settings.DJANGO_SERVICES = {
        "SERVICES": {"people": P + "EventfulPeople"},
        "HOOKS": {"after": {"create": [silence]}},
    }
    get_service("people").create({"name": "Quiet", "age": 1}, Params())

    assert listeners["created"].received == []

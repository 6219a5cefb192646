"""
A service with `if_match` sends the version it last read of a record as `If-Match`, on each of
the four REST connection kinds and over socket.io, against the project's own server: the two
tabs of the server guide, from Python, without a header written by hand.
"""

from __future__ import annotations

import pytest
import requests

from django_services.client import App, etag_of, rest_client, socketio_client
from django_services.client.preconditions import ETagMemory
from django_services.errors import NotFound, PreconditionFailed, PreconditionRequired
from tests.server.socketio.conftest import (  # noqa: F401 (fixtures)
    LiveSocketServer,
    services_settings,
)
from tests.testapp.models import Sample

C = "tests.server.conditional_services."
CONDITIONAL = {"versioned": C + "VersionedService", "guarded": C + "GuardedVersionedService"}


@pytest.fixture
def rest(live_services, transactional_db, live_server, settings):
    services = settings.DJANGO_SERVICES["SERVICES"]
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SERVICES": {**services, **CONDITIONAL},
    }
    return live_server.url


def tab(harness, url, path="versioned", if_match=True):
    """One browser tab of the story: an app whose service remembers what it read."""
    app = harness.app(url)
    app.use(path, app.connection.service(path), if_match=if_match)
    return app.service(path)


@pytest.mark.parametrize("if_match", [True, "version"])
def test_the_second_tab_saving_a_stale_copy_gets_a_412(harness, rest, if_match):
    first, second, run = tab(harness, rest, if_match=if_match), None, harness.run
    second = tab(harness, rest, if_match=if_match)
    created = run(first.create({"text": "buy eggs"}))
    run(first.get(created["id"]))
    run(second.get(created["id"]))

    saved = run(first.patch(created["id"], {"text": "buy bread"}))
    with pytest.raises(PreconditionFailed) as stale:
        run(second.patch(created["id"], {"text": "buy milk"}))

    assert (saved["version"], stale.value.data) == (2, {"etag": '"2"'})
    assert Sample.objects.get().text == "buy bread"
    # The 412 taught the second tab nothing: it writes again only after reading again.
    harness.raises(PreconditionFailed, lambda: second.update(created["id"], {"text": "milk"}))
    run(second.get(created["id"]))
    assert run(second.patch(created["id"], {"text": "buy milk"}))["version"] == 3
    # Its own write's answer is the version it read last: a write after a write passes.
    assert run(second.patch(str(created["id"]), {"text": "buy oat milk"}))["version"] == 4


def test_a_write_of_a_record_never_read_sends_no_precondition(harness, rest):
    guarded, run = tab(harness, rest, "guarded"), harness.run
    created = run(harness.app(rest).service("guarded").create({"text": "draft"}))

    harness.raises(PreconditionRequired, lambda: guarded.patch(created["id"], {"text": "x"}))
    run(guarded.get(created["id"]))
    run(guarded.patch(created["id"], {"text": "read first"}))
    run(guarded.remove(created["id"]))
    # A remove forgets the record; so does a 404.
    assert len(guarded.etags) == 0
    harness.raises(NotFound, lambda: guarded.get(created["id"]))
    assert Sample.objects.count() == 0


def test_a_precondition_of_the_call_wins_and_none_sends_none(harness, rest):
    guarded, run = tab(harness, rest, "guarded"), harness.run
    created = run(guarded.create({"text": "draft"}))
    read = run(guarded.get(created["id"]))
    run(
        harness.app(rest)
        .service("guarded")
        .patch(created["id"], {"text": "meanwhile"}, {"headers": {"If-Match": etag_of(read)}})
    )

    harness.raises(
        PreconditionRequired,
        lambda: guarded.patch(created["id"], {"text": "x"}, headers={"if-match": None}),
    )
    written = run(guarded.patch(created["id"], {"text": "mine"}, headers={"If-Match": "*"}))
    assert written["text"] == "mine"


def test_a_service_without_the_option_sends_nothing_and_remembers_nothing(harness, rest):
    app = harness.app(rest)
    guarded = app.service("guarded")
    created = harness.run(guarded.create({"text": "draft"}))
    harness.run(guarded.get(created["id"]))

    assert guarded.etags is None
    harness.raises(PreconditionRequired, lambda: guarded.patch(created["id"], {"text": "x"}))


@pytest.fixture
def socket_server(services_settings, transactional_db):  # noqa: F811
    services_settings["SERVICES"] = {**services_settings["SERVICES"], **CONDITIONAL}
    with LiveSocketServer() as server:
        yield server


@pytest.mark.parametrize("transport", ["websocket", "polling"])
def test_over_socketio_the_version_field_goes_as_if_match(socket_server, transport):
    tabs = []
    for _ in range(2):
        connection = socketio_client(socket_server.url, options={"transports": [transport]})
        app = App().configure(connection)
        app.use("guarded", connection.service("guarded"), if_match="version")
        tabs.append((app.service("guarded"), connection))
    (first, _), (second, _) = tabs
    try:
        created = first.create({"text": "buy eggs"})
        first.get(created["id"])
        second.get(created["id"])

        assert first.patch(created["id"], {"text": "buy bread"})["version"] == 2
        with pytest.raises(PreconditionFailed):
            second.patch(created["id"], {"text": "buy milk"})
        with pytest.raises(TypeError, match="version field"):
            App().configure(tabs[0][1]).use("guarded", tabs[0][1].service("guarded"), if_match=True)
    finally:
        for _, connection in tabs:
            connection.close()
    assert Sample.objects.get().text == "buy bread"


def test_the_memory_is_bounded_least_recently_read_first():
    memory = ETagMemory("version", size=2)
    for id in (1, 2, 3):
        memory.remember("todos", "get", id, {}, {"id": id, "version": 10 + id})

    assert memory.precondition("todos", "patch", 1, {}) == {}
    assert memory.precondition("todos", "patch", "3", {}) == {"query": {"$ifMatch": 13}}
    assert memory.precondition("todos", "patch", None, {}) == {}  # many records: no tag
    assert memory.precondition("todos", "create", 3, {}) == {}
    assert len(memory) == 2


def test_route_values_tell_records_apart():
    memory = ETagMemory("version")
    memory.remember("users/:userId/notes", "get", 1, {"route": {"userId": 7}}, {"version": 3})

    assert memory.precondition("users/:userId/notes", "remove", 1, {"route": {"userId": 8}}) == {
        "route": {"userId": 8}
    }
    assert memory.precondition("users/:userId/notes", "remove", 1, {"route": {"userId": "7"}}) == {
        "route": {"userId": "7"},
        "query": {"$ifMatch": 3},
    }


async def test_over_an_async_socket_too(socket_server):
    import socketio

    connections = [socketio_client(socket_server.url, socketio.AsyncClient()) for _ in range(2)]
    tabs = []
    for connection in connections:
        app = App().configure(connection)
        app.use("guarded", connection.service("guarded"), if_match="version")
        tabs.append(app.service("guarded"))
    first, second = tabs
    try:
        created = await first.create({"text": "buy eggs"})
        await first.get(created["id"])
        await second.get(created["id"])

        assert (await first.patch(created["id"], {"text": "buy bread"}))["version"] == 2
        with pytest.raises(PreconditionFailed):
            await second.remove(created["id"])
    finally:
        for connection in connections:
            await connection.aclose()
    assert (await Sample.objects.aget()).text == "buy bread"  # the stale remove removed nothing


def test_if_match_takes_true_or_a_field_name_and_only_for_remote_services():
    connection = rest_client("http://127.0.0.1:9").requests(requests.Session())
    for wrong in (1, "", ["version"]):
        with pytest.raises(TypeError, match="if_match"):
            connection.service("versioned").bind(App(), if_match=wrong)
    with pytest.raises(TypeError, match="if_match"):
        App().use("local", object(), if_match=True)
    # False turns off what the service was made with.
    made = type(connection.service("x"))("x", connection=connection, if_match=True)
    assert made.etags is not None and made.bind(App(), if_match=False).etags is None

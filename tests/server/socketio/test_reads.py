"""
The read rule of service events: a connection gets an event only if its user could `get` the
record through the same service (`event_readers`), checked once per distinct user; over
websocket and long-polling.
"""

from __future__ import annotations

import asyncio

import pytest
import requests
from asgiref.sync import sync_to_async
from django.db import connection as database
from django.test.utils import CaptureQueriesContext

from django_services.server.socketio import reads
from django_services.server.socketio.connection import Connection
from tests.server.socketio.conftest import PASSWORD
from tests.server.socketio.read_services import SERVICES
from tests.server.socketio.test_channels import barrier

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]

PUBLISHER = "tests.server.socketio.read_services.EveryonePublisher"


@pytest.fixture
def publishing(services_settings, settings):
    settings.DJANGO_SERVICES = {
        **services_settings,
        "SERVICES": {**services_settings["SERVICES"], **SERVICES},
        "SOCKETIO_PUBLISHER": PUBLISHER,
    }


STAFF = "staff@example.com"


@pytest.fixture
def staff_user(transactional_db):
    """A staff user, made before any connection: every note is theirs to read."""
    from tests.testapp.models import User

    return User.objects.create_user(email=STAFF, password=PASSWORD, is_staff=True)


async def logged_in(connect, email, *, staff=False):
    """A connection logged in as user `email` (new unless staff): (client, user, token)."""
    client = await connect()
    user = None
    if not staff:
        user = await client.call("create", "users", {"email": email, "password": PASSWORD}, {})
    login = await client.call(
        "create", "authentication", {"strategy": "local", "email": email, "password": PASSWORD}, {}
    )
    return client, user, login["accessToken"]


def names(client):
    return [event for event, _ in client.events]


@pytest.fixture(params=("websocket", "polling"))
def transport(request) -> str:
    return request.param


@pytest.fixture(params=["rest", "socketio"])
def over(request):
    return request.param


async def create_note(over, url, client, token, path, text):
    """Create a note as the client's user, over REST or over its socket."""
    if over == "socketio":
        return await client.call("create", path, {"text": text}, {})
    response = await sync_to_async(requests.post)(
        f"{url}/{path}",
        json={"text": text},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()


async def test_a_record_reaches_only_the_users_who_may_read_it(
    publishing, staff_user, connect, live_socket_server, over
):
    ada, _, ada_token = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    staff, _, _ = await logged_in(connect, STAFF, staff=True)
    anonymous = await connect()

    note = await create_note(over, live_socket_server.url, ada, ada_token, "notes", "secret")
    await barrier(bob, [ada, bob, staff, anonymous])

    assert ("notes created", note) in ada.events
    assert ("notes created", note) in staff.events
    assert "notes created" not in names(bob)
    assert "notes created" not in names(anonymous)
    # What the socket would not send, a get answers 404 too.
    assert (await bob.error("get", "notes", note["id"], {}))["code"] == 404


async def test_patched_and_removed_events_follow_the_rule(publishing, staff_user, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    staff, _, _ = await logged_in(connect, STAFF, staff=True)
    note = await ada.call("create", "notes", {"text": "draft"}, {})

    patched = await ada.call("patch", "notes", note["id"], {"text": "final"}, {})
    removed = await ada.call("remove", "notes", note["id"], {})
    await barrier(bob, [ada, bob, staff])

    assert ("notes patched", patched) in ada.events
    assert ("notes patched", patched) in staff.events
    # The record is gone once the event leaves: the user who removed it is the reader known.
    assert ("notes removed", removed) in ada.events
    assert "notes removed" not in names(staff)
    assert not {"notes patched", "notes removed"} & set(names(bob))


async def test_a_removal_by_staff_reaches_the_staff_only(publishing, staff_user, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    staff, _, _ = await logged_in(connect, STAFF, staff=True)
    note = await ada.call("create", "notes", {"text": "spam"}, {})
    removed = await staff.call("remove", "notes", note["id"], {})
    await barrier(staff, [ada, staff])
    assert ("notes removed", removed) in staff.events
    assert "notes removed" not in names(ada)


async def test_object_permissions_are_checked_too(publishing, staff_user, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    staff, _, _ = await logged_in(connect, STAFF, staff=True)
    shown = await ada.call("create", "guarded-notes", {"text": "shown"}, {})
    hidden = await ada.call("create", "guarded-notes", {"text": "hidden from Ada"}, {})
    await barrier(ada, [ada, staff])

    assert ("guarded-notes created", shown) in ada.events
    # In Ada's queryset, but her `get` is refused by the object permission: so is the event.
    assert ("guarded-notes created", hidden) not in ada.events
    assert (await ada.error("get", "guarded-notes", hidden["id"], {}))["code"] == 403
    for note in (shown, hidden):
        assert ("guarded-notes created", note) in staff.events


async def test_custom_events_carrying_the_id_are_checked_as_the_record(publishing, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    anonymous = await connect()
    note = await ada.call("create", "notes", {"text": "mine"}, {})

    await ada.call("ping", "notes", {"id": note["id"]}, {})
    await ada.call("ping", "notes", {"count": 3}, {})
    await barrier(bob, [ada, bob, anonymous])

    assert ("notes pinged", {"id": note["id"]}) in ada.events
    assert ("notes pinged", {"id": note["id"]}) not in bob.events
    # Data that is not a record: whoever may call `get` gets it.
    for client in (ada, bob, anonymous):
        assert ("notes pinged", {"count": 3}) in client.events


async def test_a_shared_service_reaches_every_user_its_permissions_allow(publishing, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    anonymous = await connect()

    note = await ada.call("create", "shared-notes", {"text": "for all"}, {})
    removed = await ada.call("remove", "shared-notes", note["id"], {})
    await barrier(bob, [ada, bob, anonymous])

    for client in (ada, bob):
        assert ("shared-notes created", note) in client.events
        assert ("shared-notes removed", removed) in client.events
    # `IsAuthenticated`: an anonymous connection may not `get`.
    assert not [event for event in names(anonymous) if event.startswith("shared-notes")]


async def test_an_event_published_from_the_event_loop_is_checked_in_a_worker_thread(
    publishing, connect, live_socket_server
):
    from django_services.server.pipeline.events import ServiceEvent
    from django_services.server.registry import get_service

    ada, _, _ = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    note = await ada.call("create", "notes", {"text": "again"}, {})
    server = live_socket_server.application.server

    class Context:
        service = get_service("notes")

    async def publish_in_the_loop():
        # The loop can not wait for itself: the fan-out checks, in a worker thread.
        server.on_service_event(ServiceEvent("notes", "patched", note, Context()))

    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(publish_in_the_loop(), server.loop))
    await barrier(bob, [ada, bob])
    assert ("notes patched", note) in ada.events
    assert "notes patched" not in names(bob)


def test_an_unknown_event_readers_value_is_named():
    from django_services.server.pipeline.events import ServiceEvent
    from tests.server.socketio.read_services import NoteService

    class Typo(NoteService):
        event_readers = "shard"

    class Context:
        service = Typo()

    with pytest.raises(ValueError, match=r"Typo.event_readers is 'shard': one of 'per_user'"):
        reads.rule(ServiceEvent("notes", "created", {"id": 1}, Context()))


async def test_a_service_that_opts_out_reaches_its_whole_channels(publishing, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    bob, _, _ = await logged_in(connect, "bob@example.com")
    note = await ada.call("create", "open-notes", {"text": "open"}, {})
    await barrier(ada, [ada, bob])
    assert ("open-notes created", note) in bob.events


async def test_a_service_without_per_user_reads_reaches_everyone(publishing, connect):
    ada, _, _ = await logged_in(connect, "ada@example.com")
    anonymous = await connect()
    person = await ada.call("create", "people", {"name": "Cy"}, {})
    await barrier(ada, [ada, anonymous])
    assert ("people created", person) in anonymous.events


def _connections(users, per_user):
    """`per_user` logged-in connections for each user, and as many anonymous ones."""
    connections = {}
    for user in [*users, None]:
        for n in range(per_user):
            connection = Connection(sid=f"{getattr(user, 'pk', 'anonymous')}-{n}")
            if user is not None:
                connection.login(user, {"strategy": "jwt"})
            connections[connection.sid] = connection
    return connections


@pytest.mark.parametrize(
    ("path", "queries"),
    [("notes", 1), ("shared-notes", 1), ("guarded-notes", 2)],
)
def test_the_queries_of_an_event_grow_with_its_users_not_their_connections(
    publishing, path, queries
):
    from tests.testapp.models import Note, User

    users = [User.objects.create_user(email=f"u{n}@example.com") for n in range(3)]
    note = Note.objects.create(text="t", user_id=users[0].pk)
    shared = path == "shared-notes"
    check = {"path": path, "shared": shared, "route": {}, "id": note.pk}

    def count(per_user):
        connections = _connections(users, per_user)
        counted = []

        def capture(function, *args):
            with CaptureQueriesContext(database) as queries:
                answer = function(*args)
            counted.append(len(queries))
            return answer

        async def run(function, *args):
            return await asyncio.to_thread(capture, function, *args)

        allowed = asyncio.run(reads.recipients(check, list(connections), connections, run))
        assert len(counted) == 1  # one check per event, whatever the connections
        return counted[0], allowed

    one, _ = count(1)
    many, allowed = count(25)
    assert one == many
    # One query for every user (the users' querysets in one `UNION ALL`, or one read for
    # all), and one more to read the record where permissions have object permissions.
    assert one == queries
    if shared:
        assert {sid.split("-")[0] for sid in allowed} == {str(user.pk) for user in users}
    else:
        assert allowed == [f"{users[0].pk}-{n}" for n in range(25)]


def test_a_socket_that_joined_or_logged_in_after_the_check_is_checked_when_sent(publishing):
    # The committing thread checks the sockets of the channels as they were; one that joined
    # since (a recovered connection, back in its channels) or logged in since is checked
    # when the event is sent, not left out.
    from tests.testapp.models import Note, User

    owner, stranger = (User.objects.create_user(email=f"{name}@example.com") for name in "ab")
    note = Note.objects.create(text="t", user_id=owner.pk)
    check = {"path": "notes", "shared": False, "route": {}, "id": note.pk}
    before = _connections([owner], 1)
    checked = reads.verdicts(check, reads.user_groups(list(before), before))
    now = {**before, **_connections([owner, stranger], 1)}
    now["owner-late"] = Connection(sid="owner-late")
    now["owner-late"].login(owner, {"strategy": "jwt"})
    now["anonymous-0"].login(owner, {"strategy": "jwt"})  # logged in since the check

    async def run(function, *args):
        return await asyncio.to_thread(function, *args)

    readers = asyncio.run(reads.recipients(check, list(now), now, run, checked))

    assert sorted(readers) == sorted([f"{owner.pk}-0", "owner-late", "anonymous-0"])

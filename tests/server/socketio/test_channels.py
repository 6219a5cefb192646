"""Service events reach the connections their publisher chooses, once each, after commit."""

from __future__ import annotations

import asyncio

import pytest
import requests
from asgiref.sync import sync_to_async

from tests.server.socketio.conftest import PASSWORD
from tests.server.socketio.realtime import gate
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHER = "tests.interop.conformance.realtime.ConformancePublisher"


@pytest.fixture
def publishing(services_settings, settings):
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}


async def logged_in(connect, email):
    """A connection logged in as a new user `email`; returns (client, user record)."""
    client = await connect()
    user = await client.call("create", "users", {"email": email, "password": PASSWORD}, {})
    await client.call(
        "create", "authentication", {"strategy": "local", "email": email, "password": PASSWORD}, {}
    )
    return client, user


async def barrier(writer, observers):
    """
    Wait until every observer got the `people created` of a write made now: each socket gets
    its events in the order they were published, so every earlier event has arrived too.
    """
    marker = await writer.call_when_available("create", "people", {"name": "barrier"}, {})
    await eventually_async(
        lambda: all(("people created", marker) in client.events for client in observers),
        message="the barrier event arrives",
    )


async def server_barrier(live_socket_server, observers):
    """
    Wait until every observer got a `barrier` event the server sends every socket now: an event
    of a call answered before was sent before it, on the same ordered socket.
    """
    server = live_socket_server.application.server

    async def emit_after_the_deliveries():
        # After every event the server is delivering (each waits for the lock).
        async with server.events.deliveries:
            await server.sio.emit("barrier", {"n": 1})

    sent = asyncio.run_coroutine_threadsafe(emit_after_the_deliveries(), server.loop)
    await asyncio.wrap_future(sent)
    await eventually_async(
        lambda: all(("barrier", {"n": 1}) in client.events for client in observers),
        message="the barrier event arrives",
    )


async def test_events_reach_logged_in_connections_once_and_not_anonymous_ones(publishing, connect):
    ada, ada_user = await logged_in(connect, "ada@example.com")
    bob, bob_user = await logged_in(connect, "bob@example.com")
    anonymous = await connect()

    person = await ada.call("create", "people", {"name": "Cy"}, {})
    many = await ada.call("create", "people", [{"name": "D"}, {"name": "E"}], {})
    await ada.call("patch", "users", ada_user["id"], {"email": "ada2@example.com"}, {})
    await ada.call("create", "api/v1/messages", {"text": "hi", "userId": bob_user["id"]}, {})
    await ada.call("create", "secrets", {"secret": "s"}, {})
    await barrier(ada, [ada, bob])

    for client in (ada, bob):
        names = [event for event, _ in client.events]
        assert ("people created", person) in client.events
        # One event per record of a multi create, each carrying one record.
        assert [data for event, data in client.events if event == "people created"][1:3] == many
        assert "secrets created" not in names
    # Ada is in two of the channels `users` publishes to, and gets the event once; Bob, who
    # may not read Ada's account (a `get` of it is 404 for him), does not get it.
    assert [event for event, _ in ada.events].count("users patched") == 1
    patched = dict(ada.events)["users patched"]
    assert patched == {"id": ada_user["id"], "email": "ada2@example.com"}
    assert "users patched" not in [event for event, _ in bob.events]
    assert "api/v1/messages created" in [event for event, _ in bob.events]
    assert "api/v1/messages created" not in [event for event, _ in ada.events]
    assert anonymous.events == []


async def test_rest_writes_and_custom_events_are_published(publishing, connect, live_socket_server):
    ada, _ = await logged_in(connect, "ada@example.com")
    response = requests.post(f"{live_socket_server.url}/todos", json={"text": "t"}, timeout=10)
    assert response.status_code == 201
    await ada.call("markAllComplete", "todos", {}, {})
    await barrier(ada, [ada])
    assert ("todos created", response.json()) in ada.events
    assert ("todos markedAllComplete", {"updated": 1}) in ada.events
    assert "todos patched" not in [event for event, _ in ada.events]


async def test_logout_leaves_every_channel(publishing, connect):
    ada, _ = await logged_in(connect, "ada@example.com")
    bob, _ = await logged_in(connect, "bob@example.com")
    await ada.call("remove", "authentication", None, {})
    ada.events.clear()
    await barrier(bob, [bob])
    assert ada.events == []


async def test_nothing_is_published_without_a_publisher(connect, live_socket_server):
    ada, _ = await logged_in(connect, "ada@example.com")
    bob, _ = await logged_in(connect, "bob@example.com")
    await bob.call("create", "people", {"name": "Cy"}, {})
    await server_barrier(live_socket_server, [ada, bob])
    assert ada.events == bob.events == [("barrier", {"n": 1})]


async def test_a_failed_write_publishes_nothing(publishing, connect):
    ada, _ = await logged_in(connect, "ada@example.com")
    error = await ada.error("create", "people", {"age": "old"}, {})
    assert error["code"] == 400
    await barrier(ada, [ada])
    assert [event for event, _ in ada.events] == ["people created"]


def _deactivate_unseen(pk):
    """A change the user model's signals do not see: found at the socket's next call."""
    from tests.testapp.models import User

    User.objects.filter(pk=pk).update(is_active=False)


def _deactivate(pk):
    """A change the signals see: the login ends on the server, pushed to its sockets."""
    from tests.testapp.models import User

    user = User.objects.get(pk=pk)
    user.is_active = False
    user.save()


async def _remove(client, user):
    await client.call("remove", "authentication", None, {})


async def _found_at_next_call(client, user):
    await sync_to_async(_deactivate_unseen)(user["id"])
    assert (await client.error("find", "secrets", {}))["code"] == 401


async def _pushed(client, user):
    await sync_to_async(_deactivate)(user["id"])


LOGOUTS = {"remove": _remove, "found-at-next-call": _found_at_next_call, "pushed": _pushed}

#: Publishers whose `logged_out()` is the default (no channel) and `connected()`'s.
LOGGED_OUT = {
    "no-channel": ("django_services.server.socketio.Publisher", False),
    "connected": ("tests.server.socketio.realtime.RevocationPublisher", True),
}


@pytest.fixture(params=list(LOGGED_OUT))
def logging_out(request, services_settings, settings):
    """The publisher of the test; logins ended on the server are pushed to their sockets."""
    publisher, rejoins = LOGGED_OUT[request.param]
    settings.DJANGO_SERVICES = {
        **services_settings,
        "SOCKETIO_PUBLISHER": publisher,
        "AUTHENTICATION": {**services_settings["AUTHENTICATION"], "REVOCATION_CACHE": "default"},
    }
    return rejoins


@pytest.mark.parametrize("logout", list(LOGOUTS))
async def test_every_logout_moves_the_channels_alike(
    logging_out, connect, live_socket_server, logout
):
    ada, ada_user = await logged_in(connect, "ada@example.com")
    bob, _ = await logged_in(connect, "bob@example.com")
    await LOGOUTS[logout](ada, ada_user)

    ada.events.clear()
    todo = await bob.call("create", "todos", {"text": "for the logged-in"}, {})
    person = await bob.call("create", "people", {"name": "for everyone"}, {})
    await server_barrier(live_socket_server, [ada, bob])

    assert ("todos created", todo) in bob.events
    assert "todos created" not in [event for event, _ in ada.events]
    # In no channel, or in those of a new connection, which get `people` events.
    assert (("people created", person) in ada.events) is logging_out


@pytest.fixture
def gated(services_settings, settings):
    settings.DJANGO_SERVICES = {
        **services_settings,
        "SOCKETIO_PUBLISHER": "tests.server.socketio.realtime.GatedPublisher",
    }
    yield gate
    gate.release()


async def test_a_login_again_as_the_same_user_misses_no_event_while_its_channels_are_chosen(
    gated, connect, live_socket_server
):
    ada, _ = await logged_in(connect, "ada@example.com")
    bob, _ = await logged_in(connect, "bob@example.com")
    gated.arm()
    credentials = {"strategy": "local", "email": "ada@example.com", "password": PASSWORD}
    again = asyncio.ensure_future(ada.call("create", "authentication", credentials, {}))
    assert await asyncio.to_thread(gated.entered.wait, 10)

    person = await bob.call("create", "people", {"name": "while choosing"}, {})
    await server_barrier(live_socket_server, [bob])
    gated.release()
    await again
    await barrier(bob, [ada])

    assert ("people created", person) in ada.events

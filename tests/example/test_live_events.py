"""
The example's channels, without a browser: a write made over REST reaches the socket.io
connections its publisher chose, as the events the Feathers socket client listens to.

* todo events go to the owner's connections only (`users/<id>`): todos are private;
* message events go to every logged-in connection (every user reads every message).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from django_services.client import App, authentication_client, socketio_client

from .conftest import DEMO_EMAIL, DEMO_PASSWORD, FRIEND_EMAIL, NEW_PASSWORD, Account

#: Seconds to wait for an event that must come, on a loaded machine.
EVENT_TIMEOUT = 30


@pytest.fixture
def socket_log_in(example_server) -> Iterator[Callable[[str, str], App]]:
    """`socket_log_in(email, password)`: a client app over socket.io, logged in (local)."""
    connections: list[Any] = []

    def socket_log_in(email: str, password: str) -> App:
        connection = socketio_client(example_server.url)
        connections.append(connection)
        app = App().configure(connection)
        app.configure(authentication_client())
        app.authenticate({"strategy": "local", "email": email, "password": password})
        return app

    yield socket_log_in
    for connection in connections:
        connection.close()


def test_a_todo_written_over_rest_reaches_its_owner_s_sockets_only(
    newcomer: Account, socket_log_in: Callable[[str, str], App]
):
    owner = socket_log_in(newcomer.user["email"], NEW_PASSWORD)
    other = socket_log_in(FRIEND_EMAIL, DEMO_PASSWORD)
    events = ("created", "patched", "removed", "markedAllComplete")
    with (
        owner.service("todos").events(*events, timeout=EVENT_TIMEOUT) as owner_todos,
        other.service("todos").events(*events, timeout=0) as other_todos,
        other.service("api/v1/messages").events("created", timeout=EVENT_TIMEOUT) as messages,
    ):
        todos = newcomer.app.service("todos")
        todo = todos.create({"text": "Announced to my sockets"})
        patched = todos.patch(todo["id"], {"complete": True})
        todos.create({"text": "Left to do"})
        marked = todos.markAllComplete({})
        removed = todos.remove(todo["id"])

        received = [(event.name, event.data) for event in _take(owner_todos, 5)]
        assert received[:2] == [("created", todo), ("patched", patched)]
        assert received[2][0] == "created"
        assert received[3] == ("markedAllComplete", {**marked, "userId": newcomer.id})
        assert received[4] == ("removed", removed)

        # The barrier: a message, which every logged-in socket gets, written after the todos.
        barrier = newcomer.app.service("api/v1/messages").create({"text": "After the todos"})
        assert next(messages).data == barrier
        assert list(other_todos) == []


def test_a_message_written_and_removed_over_rest_reaches_every_logged_in_socket(
    friend: Account, socket_log_in: Callable[[str, str], App]
):
    sockets = [socket_log_in(DEMO_EMAIL, DEMO_PASSWORD), socket_log_in(FRIEND_EMAIL, DEMO_PASSWORD)]
    streams = [
        app.service("api/v1/messages").events("created", "removed", timeout=EVENT_TIMEOUT)
        for app in sockets
    ]
    try:
        messages = friend.app.service("api/v1/messages")
        message = messages.create({"text": "For everybody"})
        # The chat's readers are shared: its removal reaches every reader, not only its author.
        removed = messages.remove(message["id"])

        for stream in streams:
            received = [(event.path, event.name, event.data) for event in _take(stream, 2)]
            assert received == [
                ("api/v1/messages", "created", message),
                ("api/v1/messages", "removed", removed),
            ]
    finally:
        for stream in streams:
            stream.close()


def _take(stream: Any, count: int) -> list[Any]:
    """The next `count` events of `stream` (fails if one does not come in time)."""
    events = []
    for event in stream:
        events.append(event)
        if len(events) == count:
            return events
    raise AssertionError(f"{len(events)} events came, not {count}: {events}")

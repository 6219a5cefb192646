"""
The read rule of events holds across processes: two socket.io server processes and a WSGI
process on one database and one Redis; each socket.io process checks the rule for its own
sockets, whichever process made the write.
"""

from __future__ import annotations

import asyncio

import pytest
import requests

from tests.server.socketio.conftest import PASSWORD, Client
from tests.server.socketio.scale_out import REDIS_URL, own_channel, redis_available, scale_out
from tests.server.socketio.test_emitter import arrives

pytestmark = [
    pytest.mark.skipif(not redis_available(), reason=f"no Redis at {REDIS_URL}"),
    pytest.mark.usefixtures("no_tracebacks"),
]

#: This run's own channel (`SOCKETIO_REDIS_CHANNEL`): other runs may share the Redis server.
CHANNEL = own_channel()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """(socket server 1, socket server 2, WSGI server), started one after the other."""
    logs = tmp_path_factory.mktemp("reads-scale-out")
    settings = "tests.server.socketio.read_settings"
    with scale_out(logs, "reads_scale_out", settings, CHANNEL) as (_, started):
        yield list(started.values())


async def logged_in(url: str, email: str, wsgi: str) -> tuple[Client, str]:
    """A socket on the server at `url`, logged in as `email` (made if new), and its token."""
    requests.post(f"{wsgi}/users", json={"email": email, "password": PASSWORD}, timeout=10)
    client = await Client(url, "websocket").connect()
    credentials = {"strategy": "local", "email": email, "password": PASSWORD}
    login = await client.call("create", "authentication", credentials, {})
    return client, login["accessToken"]


async def test_a_record_reaches_only_its_readers_on_every_process(servers):
    first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada, token = await logged_in(first.url, "ada@example.com", wsgi.url)
    ada_elsewhere, _ = await logged_in(second.url, "ada@example.com", wsgi.url)
    bob, _ = await logged_in(second.url, "bob@example.com", wsgi.url)
    bob_here, _ = await logged_in(first.url, "bob@example.com", wsgi.url)
    clients = (ada, ada_elsewhere, bob, bob_here)
    try:
        # Over REST in the WSGI process (the write-only emitter), and over a socket.
        response = requests.post(
            f"{wsgi.url}/notes",
            json={"text": "rest"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert response.status_code == 201, response.text
        over_rest = response.json()
        over_socket = await ada.call("create", "notes", {"text": "socket"}, {})
        for client in (ada, ada_elsewhere):
            await arrives(client, "notes created", over_rest)
            await arrives(client, "notes created", over_socket)
        # Each process checks an event when it sends it: the records still exist here.
        removed = await ada.call("remove", "notes", over_socket["id"], {})
        removed_over_rest = requests.delete(
            f"{wsgi.url}/notes/{over_rest['id']}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert removed_over_rest.status_code == 200, removed_over_rest.text
        for client in (ada, ada_elsewhere):
            await arrives(client, "notes removed", removed)
            await arrives(client, "notes removed", removed_over_rest.json())

        # The barrier: published after the notes, on the channel both servers read in order.
        marker = await ada.call("create", "people", {"name": "barrier"}, {})
        for client in (bob, bob_here):
            await arrives(client, "people created", marker)
            assert not [event for event, _ in client.events if event.startswith("notes")]
    finally:
        for client in clients:
            await client.close()


async def test_concurrent_writes_of_two_users_reach_each_user_s_sockets_only(servers):
    first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada, _ = await logged_in(first.url, "ada@example.com", wsgi.url)
    ada_elsewhere, _ = await logged_in(second.url, "ada@example.com", wsgi.url)
    bob, _ = await logged_in(second.url, "bob@example.com", wsgi.url)
    clients = (ada, ada_elsewhere, bob)
    try:
        writes = [
            client.call("create", "notes", {"text": f"{name} {n}"}, {})
            for n in range(8)
            for client, name in ((ada, "ada"), (bob, "bob"))
        ]
        notes = await asyncio.gather(*writes)
        for note in notes:
            readers = (ada, ada_elsewhere) if note["text"].startswith("ada") else (bob,)
            for client in readers:
                await arrives(client, "notes created", note)
        # Every note's event has been fanned out in both processes: what was sent to a
        # socket that must not get it is on its way before the barrier.
        marker = await ada.call("create", "people", {"name": "barrier"}, {})
        for client in clients:
            await arrives(client, "people created", marker)

        def received(client: Client) -> list[str]:
            texts = [data["text"] for event, data in client.events if event == "notes created"]
            return sorted(texts)

        mine = sorted(note["text"] for note in notes if note["text"].startswith("ada"))
        theirs = sorted(note["text"] for note in notes if note["text"].startswith("bob"))
        assert received(ada) == received(ada_elsewhere) == mine
        assert received(bob) == theirs
    finally:
        for client in clients:
            await client.close()

"""
Events cross processes through Redis: two socket.io server processes (uvicorn) and a WSGI
process share one database and one Redis; a write in any of them reaches the sockets of both.
"""

from __future__ import annotations

import asyncio

import pytest
import requests

from tests.server.socketio.conftest import PASSWORD, Client
from tests.server.socketio.scale_out import REDIS_URL, own_channel, redis_available, scale_out
from tests.waiting import eventually_async

CHANNEL = own_channel()


pytestmark = pytest.mark.skipif(not redis_available(), reason=f"no Redis at {REDIS_URL}")


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """(socket server 1, socket server 2, WSGI server), started one after the other."""
    logs = tmp_path_factory.mktemp("scale-out")
    settings = "tests.interop.conformance.settings"
    with scale_out(logs, "scale_out", settings, CHANNEL) as (_, started):
        yield list(started.values())


async def logged_in(url: str, email: str, wsgi: str) -> Client:
    requests.post(f"{wsgi}/users", json={"email": email, "password": PASSWORD}, timeout=10)
    client = await Client(url, "websocket").connect()
    credentials = {"strategy": "local", "email": email, "password": PASSWORD}
    await client.call("create", "authentication", credentials, {})
    return client


async def arrives(client: Client, event: str, data: dict) -> None:
    """Wait until `event` with `data` has reached `client`."""
    await eventually_async(
        lambda: (event, data) in client.events, message=f"{event} {data} reaches {client.events}"
    )


async def test_writes_in_any_process_reach_the_sockets_of_every_process(servers):
    first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada = await logged_in(first.url, "ada@example.com", wsgi.url)
    bob = await logged_in(second.url, "bob@example.com", wsgi.url)
    try:
        # A REST write in the WSGI process, published through the write-only emitter.
        over_rest = requests.post(f"{wsgi.url}/people", json={"name": "Rest"}, timeout=10)
        assert over_rest.status_code == 201
        # A socket write on the first server, delivered by the second one too.
        over_socket = await ada.call("create", "people", {"name": "Socket"}, {})
        for client in (ada, bob):
            await arrives(client, "people created", over_rest.json())
            await arrives(client, "people created", over_socket)

        # A message reaches its owner's connections only, whichever process serves them.
        users = {user["email"]: user["id"] for user in await bob.call("find", "users", {})}
        message = await ada.call(
            "create", "api/v1/messages", {"text": "hi", "userId": users["bob@example.com"]}, {}
        )
        await arrives(bob, "api/v1/messages created", message)
        marker = await bob.call("create", "people", {"name": "barrier"}, {})
        # The barrier: the marker was published after the message, on the channel both
        # servers read in order, so any event of the message reached Ada before it.
        await arrives(ada, "people created", marker)
        assert "api/v1/messages created" not in [event for event, _ in ada.events]
        # Each event once, though three processes publish.
        assert [data for event, data in bob.events if event == "people created"].count(
            over_socket
        ) == 1
    finally:
        await ada.close()
        await bob.close()


async def test_only_the_events_of_the_configured_channel_reach_the_sockets(servers):
    import socketio

    first, _, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    carol = await logged_in(first.url, "carol@example.com", wsgi.url)
    try:
        for channel, name in ((f"{CHANNEL}-other", "stranger"), (CHANNEL, "neighbour")):
            manager = socketio.RedisManager(REDIS_URL, channel=channel, write_only=True)
            manager.emit("people created", {"name": name}, namespace="/")
        await arrives(carol, "people created", {"name": "neighbour"})
        assert ("people created", {"name": "stranger"}) not in carol.events
    finally:
        await carol.close()


async def test_one_process_s_events_reach_the_other_processes_once_in_order(servers):
    first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada = await logged_in(first.url, "ada@example.com", wsgi.url)
    bob = await logged_in(second.url, "bob@example.com", wsgi.url)
    try:
        people = await asyncio.gather(
            *(ada.call("create", "people", {"name": f"p{n}"}, {}) for n in range(30))
        )
        for client in (ada, bob):
            for person in people:
                await arrives(client, "people created", person)

        def order(client: Client) -> list[int]:
            return [data["id"] for event, data in client.events if event == "people created"]

        # Each once. Two creates committing at once may commit in either order of their
        # ids: a process sends an event after those below it that committed already (read
        # from the log when their message is still on its way), so Bob's socket, through
        # Redis, gets them in the first process's order or closer to the ids' order.
        assert sorted(order(bob)) == sorted(order(ada)) == sorted(person["id"] for person in people)
        assert len(set(order(bob))) == len(order(bob))
        ahead = [(a, b) for a, b in zip(order(bob), order(bob)[1:], strict=False) if a > b]
        assert all(order(ada).index(a) < order(ada).index(b) for a, b in ahead)
    finally:
        await ada.close()
        await bob.close()

"""
Two socket.io server processes on one database and one Redis: an event a dead process logged
but never sent reaches the sockets of both, and every event reaches each socket once, though
it comes both live (through Redis) and from the log.
"""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import urlsplit

import pytest
import requests

from tests.server.socketio.scale_out import REDIS_URL, own_channel, redis_available, scale_out
from tests.server.socketio.test_emitter import arrives
from tests.server.socketio.test_reads_redis import logged_in

pytestmark = pytest.mark.skipif(not redis_available(), reason=f"no Redis at {REDIS_URL}")

CHANNEL = own_channel()

INSERT = (
    "INSERT INTO django_services_loggedevent (logged_at, path, event, data, channels, read) "
    "VALUES ({now}, 'people', 'created', {p}, {p}, NULL)"
)


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """(database URL, socket server 1, socket server 2, WSGI server)."""
    logs = tmp_path_factory.mktemp("tailer-scale-out")
    settings = "tests.server.socketio.read_settings"
    with scale_out(logs, "tailer_scale_out", settings, CHANNEL) as (database_url, started):
        yield database_url, *started.values()


def log_without_sending(database_url: str, data: dict) -> None:
    """What a process killed right after its commit leaves: the logged event, never sent."""
    values = (json.dumps(data), json.dumps([{"names": ["authenticated"]}]))
    if urlsplit(database_url).scheme == "sqlite":
        with sqlite3.connect(urlsplit(database_url).path) as connection:
            connection.execute(INSERT.format(now="datetime('now')", p="?"), values)
        return
    import psycopg

    with psycopg.connect(database_url) as connection:
        connection.execute(INSERT.format(now="now()", p="%s"), values)


async def test_an_event_logged_but_never_sent_reaches_every_process_once(servers):
    database_url, first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada, token = await logged_in(first.url, "ada@example.com", wsgi.url)
    ada_elsewhere, _ = await logged_in(second.url, "ada@example.com", wsgi.url)
    clients = (ada, ada_elsewhere)
    try:
        lost = {"id": 777, "name": "Lost"}
        log_without_sending(database_url, lost)
        for client in clients:
            await arrives(client, "people created", lost)
        # A live event after it: it comes through Redis and from the log, and arrives once.
        barrier = requests.post(
            f"{wsgi.url}/people",
            json={"name": "barrier"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).json()
        for client in clients:
            await arrives(client, "people created", barrier)
        # Every poll after that finds nothing new: another barrier, the counts still one.
        again = await ada.call("create", "people", {"name": "again"}, {})
        for client in clients:
            await arrives(client, "people created", again)
            people = [data for event, data in client.events if event == "people created"]
            assert people == [lost, barrier, again]
    finally:
        for client in clients:
            await client.close()


async def test_an_event_with_channel_data_reaches_each_connection_once_on_every_process(servers):
    _, first, second, wsgi = servers
    requests.post(f"{wsgi.url}/__reset", timeout=10)
    ada, token = await logged_in(first.url, "ada@example.com", wsgi.url)
    ada_elsewhere, _ = await logged_in(second.url, "ada@example.com", wsgi.url)
    clients = (ada, ada_elsewhere)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        note = requests.post(
            f"{wsgi.url}/data-notes", json={"text": "n"}, headers=headers, timeout=10
        ).json()
        barrier = await ada.call("create", "people", {"name": "barrier"}, {})
        for client in clients:
            await arrives(client, "people created", barrier)
            # In `authenticated` and in her own channel: once, with the first channel's data.
            assert [data for event, data in client.events if event == "data-notes created"] == [
                {"id": note["id"], "via": "everyone"}
            ]
    finally:
        for client in clients:
            await client.close()

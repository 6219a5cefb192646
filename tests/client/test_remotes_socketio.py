"""Remotes over socket.io: the `socketio` kind, `listen_service`, the events of REST writes."""

from __future__ import annotations

import io
import json
import threading

import pytest
import requests
from django.core.management import CommandError, call_command

from django_services.client.remotes import remotes
from django_services.client.transports.socketio import (
    AsyncSocketIOTransport,
    SocketIOTransport,
)
from tests.server.socketio.conftest import (  # noqa: F401 (fixtures)
    EMAIL,
    PASSWORD,
    LiveSocketServer,
    services_settings,
    user,
)
from tests.waiting import eventually

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("user")]

PUBLISHER = "tests.interop.conformance.realtime.ConformancePublisher"


@pytest.fixture
def server(services_settings, settings, transactional_db):  # noqa: F811
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}
    server = LiveSocketServer()
    server.start()
    yield server
    remotes.close_all()
    server.stop()


def token(url):
    login = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    response = requests.post(f"{url}/authentication", json=login, timeout=10)
    response.raise_for_status()
    return response.json()["accessToken"]


@pytest.fixture
def remote(server, settings):
    def configure(connection="socketio", **options):
        settings.DJANGO_SERVICES = {
            **settings.DJANGO_SERVICES,
            "REMOTES": {
                "live": {
                    "BASE_URL": server.url,
                    "CONNECTION": connection,
                    "OPTIONS": {
                        "headers": {"Authorization": f"Bearer {token(server.url)}"},
                        "reconnection_delay": 0.1,
                        **options,
                    },
                }
            },
        }
        return remotes["live"]

    return configure


def test_a_socketio_remote_calls_with_the_handshake_token(remote):
    live = remote()
    assert isinstance(live.connection, SocketIOTransport)
    # The Authorization header of the handshake logs the socket in: secrets need a JWT.
    assert live.service("secrets").find() is not None
    made = live.service("people").create({"name": "remote"})
    assert live.service("people").get(made["id"]) == made


async def test_an_async_socketio_remote(remote):
    live = remote("socketio-async")
    assert isinstance(live.connection, AsyncSocketIOTransport)
    assert await live.service("secrets").find() is not None
    await live.aclose()


def test_listen_service_prints_the_events_of_rest_writes(remote, server):
    remote()
    out = io.StringIO()
    listener = threading.Thread(
        target=call_command,
        # Generous: a busy machine delays delivery, and the test ends as the second arrives.
        args=("listen_service", "live", "people", "--count", "2", "--timeout", "30"),
        kwargs={"stdout": out},
    )
    listener.start()
    # Wait until the listener's socket is logged in and in the channels events go to.
    socket_server = server.application.server
    eventually(
        lambda: any(
            connection.is_authenticated and len(socket_server.sio.rooms(sid)) > 1
            for sid, connection in list(socket_server.connections.items())
        ),
        timeout=15,
        message="the listener connects",
    )
    headers = {"Authorization": f"Bearer {token(server.url)}"}
    created = requests.post(f"{server.url}/people", json={"name": "Rest"}, timeout=10).json()
    patched = requests.patch(
        f"{server.url}/people/{created['id']}", json={"age": 3}, headers=headers, timeout=10
    ).json()
    listener.join(60)
    assert not listener.is_alive()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [
        {"path": "people", "event": "created", "data": created},
        {"path": "people", "event": "patched", "data": patched},
    ]


@pytest.mark.parametrize("connection", ["socketio", "socketio-async"])
def test_listen_service_says_when_it_listens_and_why_it_stopped(remote, server, connection):
    remote(connection)
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command(
            "listen_service", "live", "people", "--event", "created", "--count", "1",
            "--timeout", "0.4", stdout=out, stderr=err,
        )  # fmt: skip

    assert out.getvalue() == ""
    assert err.getvalue() == "Listening to created of 'people' on 'live'; Ctrl-C to stop.\n"
    assert str(raised.value) == "Stopped (no event for 0.4 s) after 0 event(s)."
    assert raised.value.returncode == 1


def test_listen_service_refuses_a_rest_remote(settings, server):
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "REMOTES": {"rest": {"BASE_URL": server.url}},
    }
    with pytest.raises(CommandError, match='events need "CONNECTION": "socketio"'):
        call_command("listen_service", "rest", "people")

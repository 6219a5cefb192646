"""
A login ended in one process logs out its sockets in every process, through Redis: a socket
served by one socket.io server process stops receiving its user's private events once another
process (a socket.io server, or a WSGI process) has answered the password change.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
from asgiref.sync import sync_to_async

from tests.server.socketio.conftest import PASSWORD
from tests.server.socketio.scale_out import REDIS_URL, own_channel, redis_available, scale_out
from tests.server.socketio.test_revocation import listening
from tests.waiting import eventually_async

#: This run's own pub/sub channel: other runs may share the Redis server.
CHANNEL = own_channel()

pytestmark = [
    pytest.mark.skipif(not redis_available(), reason=f"no Redis at {REDIS_URL}"),
    pytest.mark.usefixtures("no_tracebacks"),
]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """{"asgi-a", "asgi-b", "wsgi"}: three processes on one database and one Redis channel."""
    logs = tmp_path_factory.mktemp("revocation")
    settings = "tests.server.socketio.revocation_settings"
    names = ("asgi-a", "asgi-b", "wsgi")
    with scale_out(logs, "revocation", settings, CHANNEL, names) as (_, started):
        yield started


def sign_up_and_log_in(url: str, email: str) -> dict[str, Any]:
    created = requests.post(f"{url}/users", json={"email": email, "password": PASSWORD}, timeout=10)
    assert created.status_code == 201, created.text
    credentials = {"strategy": "local", "email": email, "password": PASSWORD}
    login = requests.post(f"{url}/authentication", json=credentials, timeout=10)
    assert login.status_code == 201, login.text
    return login.json()


def private_then_public(url: str, user_id: int) -> tuple[dict, dict]:
    """Through the process at `url`: a private event of the user, then a public one."""
    message = requests.post(
        f"{url}/api/v1/messages", json={"text": "private", "userId": user_id}, timeout=10
    )
    assert message.status_code == 201, message.text
    person = requests.post(f"{url}/people", json={"name": "barrier"}, timeout=10)
    assert person.status_code == 201, person.text
    return message.json(), person.json()


@pytest.mark.parametrize("transport", ["websocket", "polling"])
@pytest.mark.parametrize("changed_by", ["asgi-a", "wsgi"])
async def test_a_password_change_in_one_process_logs_out_the_sockets_of_another(
    servers, changed_by, transport
):
    first, second = servers["asgi-a"], servers["asgi-b"]
    email = f"{changed_by}-{transport}@example.com"
    login = await sync_to_async(sign_up_and_log_in)(first.url, email)
    user_id = login["user"]["id"]
    async with listening(second.url, transport, {}) as socket:
        token = {"strategy": "jwt", "accessToken": login["accessToken"]}
        await socket.call("create", "authentication", token, {})
        message, person = await sync_to_async(private_then_public)(first.url, user_id)
        await eventually_async(lambda: ("people created", person) in socket.events)
        assert ("api/v1/messages created", message) in socket.events

        changed = await sync_to_async(requests.patch)(
            f"{servers[changed_by].url}/users/{user_id}",
            json={"password": "another password entirely"},
            headers={"Authorization": f"Bearer {login['accessToken']}"},
            timeout=10,
        )
        assert changed.status_code == 200, changed.text

        # Published on the channel after the ending, so applied after it in the second process.
        socket.events.clear()
        message, person = await sync_to_async(private_then_public)(first.url, user_id)
        await eventually_async(
            lambda: ("people created", person) in socket.events, message="the barrier arrives"
        )
        assert ("api/v1/messages created", message) not in socket.events

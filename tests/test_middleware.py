"""
Views calling `request.remotes[...]` (RemotesMiddleware), reached through Django's test
client, calling the project's services over real HTTP (live_server): sync views with the
sync connections, async views (through the async test client) with the async ones.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client

from tests.remotes.fixtures import EMAIL, SERVICE_EMAIL

pytestmark = pytest.mark.usefixtures("live_remotes")


def call_view(harness, method, alias, path, *, user=None, headers=None, data=None):
    """Request the view calling `path` on remote `alias`; returns (status, JSON)."""
    arguments = {"headers": headers or {}}
    if data is not None:
        arguments.update(data=data, content_type="application/json")
    if not harness.is_async:
        client = Client()
        if user is not None:
            client.force_login(user)
        response = getattr(client, method)(f"/views/{alias}/{path}/", **arguments)
        return response.status_code, response.json()

    async def request():
        client = AsyncClient()
        try:
            if user is not None:
                await client.aforce_login(user)
            return await getattr(client, method)(f"/async-views/{alias}/{path}/", **arguments)
        finally:
            # The database work of async requests runs in asgiref's thread for sync code:
            # close its connections there, or the test database can not be dropped.
            await sync_to_async(connections.close_all)()

    response = harness.loop.run_until_complete(request())
    return response.status_code, response.json()


def test_a_view_forwards_the_callers_bearer_token(harness, person_token):
    status, answer = call_view(
        harness, "get", "bearer", "caller", headers={"Authorization": f"Bearer {person_token}"}
    )

    assert status == 200
    assert (answer["email"], answer["strategy"]) == (EMAIL, "jwt")


def test_a_view_forwards_the_callers_session(harness, users):
    status, found = call_view(harness, "get", "session", "caller", user=users["person"])
    created_status, created = call_view(
        harness, "post", "session", "caller", user=users["person"], data={"text": "hi"}
    )

    assert (status, created_status) == (200, 200)
    assert (found["email"], found["strategy"]) == (EMAIL, "session")
    assert created["data"] == {"text": "hi"}
    assert created["cookies"] == ["csrftoken", "sessionid"]


def test_a_view_calls_with_the_service_account(harness, users):
    status, answer = call_view(harness, "get", "login", "caller", user=users["person"])

    assert status == 200
    assert answer["email"] == SERVICE_EMAIL


def test_the_remote_s_error_reaches_the_view(harness, users):
    status, answer = call_view(harness, "get", "bearer", "caller")

    assert status == 401
    assert answer["name"] == "NotAuthenticated"


@pytest.mark.parametrize("alias", ["plain", "login", "token"])
def test_credentials_never_leak_to_a_remote_without_forwarding(
    harness, users, person_token, static_token, alias
):
    headers = {"Authorization": f"Bearer {person_token}"}

    found_status, found = call_view(
        harness, "get", alias, "echo", user=users["person"], headers=headers
    )
    created_status, created = call_view(
        harness, "post", alias, "echo", user=users["person"], headers=headers, data={}
    )

    assert (found_status, created_status) == (200, 200)
    for received in (found, created):
        assert received["cookies"] == []
        assert received["csrf_header"] is None
        assert received["authorization"] != f"Bearer {person_token}"
    if alias == "plain":
        assert found["authorization"] is None

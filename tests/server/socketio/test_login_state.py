"""
A socket's connection state follows its login: once a call finds the login gone, the socket is
anonymous and out of every channel before any further event reaches it; logins and logouts on
one socket are handled one after the other.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tests.server.socketio.conftest import PASSWORD
from tests.server.socketio.test_channels import logged_in, publishing  # noqa: F401
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)


def _change_password(pk):
    from tests.testapp.models import User

    user = User.objects.get(pk=pk)
    user.set_password("another password entirely")
    user.save()


def _deactivate(pk):
    from tests.testapp.models import User

    User.objects.filter(pk=pk).update(is_active=False)


def _delete(pk):
    from tests.testapp.models import User

    User.objects.filter(pk=pk).delete()


async def assert_nothing_reaches(client, writer):
    """
    A write by `writer` now reaches `client` not at all: once `writer` got its event, a call of
    `client` is answered after any event the server sent it before (one ordered socket).
    """
    client.events.clear()
    marker = await writer.call("create", "people", {"name": "barrier"}, {})
    await eventually_async(
        lambda: ("people created", marker) in writer.events, message="the barrier event arrives"
    )
    await client.call("find", "people", {"$limit": 0})
    assert client.events == []


REVOCATIONS = {"password-changed": _change_password, "inactive": _deactivate, "deleted": _delete}


@pytest.mark.parametrize("revocation", list(REVOCATIONS))
async def test_a_call_that_finds_the_login_gone_logs_the_socket_out(
    publishing,  # noqa: F811
    connect,
    revocation,
):
    ada, ada_user = await logged_in(connect, "ada@example.com")
    bob, _ = await logged_in(connect, "bob@example.com")
    await sync_to_async(REVOCATIONS[revocation])(ada_user["id"])

    assert (await ada.error("find", "secrets", {}))["code"] == 401
    await assert_nothing_reaches(ada, bob)


async def test_a_django_logout_takes_the_socket_out_of_its_channels(
    publishing,  # noqa: F811
    connect,
    live_socket_server,
    settings,
):
    from django.test import Client as DjangoClient

    from tests.testapp.models import User

    bob, _ = await logged_in(connect, "bob@example.com")
    user = await sync_to_async(User.objects.create_user)(email="ada@example.com", password=PASSWORD)
    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    ada = await connect(headers={"Cookie": cookie})
    marker = await bob.call("create", "people", {"name": "before"}, {})
    await eventually_async(lambda: ("people created", marker) in ada.events, message="arrives")

    await sync_to_async(browser.logout)()
    assert (await ada.error("find", "secrets", {}))["code"] == 401
    await assert_nothing_reaches(ada, bob)


async def test_logins_and_logouts_on_one_socket_are_handled_in_order(
    publishing,  # noqa: F811
    connect,
):
    bob, _ = await logged_in(connect, "bob@example.com")
    ada, _ = await logged_in(connect, "ada@example.com")
    login = {"strategy": "local", "email": "ada@example.com", "password": PASSWORD}
    for _ in range(5):
        answers = await asyncio.gather(
            ada.ack("create", "authentication", login, {}),
            ada.ack("remove", "authentication", None, {}),
        )
        # Both answered, in the order sent: the logout ends the login made just before it.
        assert answers[0][0] is None and "accessToken" in answers[0][1], answers
        assert answers[1][0] is None, answers
        await assert_nothing_reaches(ada, bob)

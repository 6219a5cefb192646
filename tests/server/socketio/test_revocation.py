"""
A login that ends on the server logs its sockets out at once, not at their next call: a socket
that only listens stops receiving its user's private events published after the change, and
becomes the anonymous connection a new socket is (it gets the public events).

Each case ends a login in its own way, then publishes a private event of the user followed by
a public one (the barrier): the socket gets the barrier and not the private event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx
import pytest
from asgiref.sync import sync_to_async

from tests.server.socketio.conftest import EMAIL, PASSWORD
from tests.server.socketio.raw import Closed, RawSocket
from tests.waiting import eventually_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]


@pytest.fixture(params=("websocket", "polling"))
def transport(request) -> str:
    return request.param


@pytest.fixture
def revoking(services_settings, settings):
    settings.DJANGO_SERVICES = {
        **services_settings,
        "SOCKETIO_PUBLISHER": "tests.server.socketio.realtime.RevocationPublisher",
        "AUTHENTICATION": {
            **services_settings["AUTHENTICATION"],
            "AUTH_STRATEGIES": ["local", "jwt", "refresh", "session"],
            "REVOCATION_CACHE": "default",
        },
    }


class Listener:
    """
    A socket.io client over raw frames (websocket or long-polling, whose python-socketio client
    leaves a poll open), recording the events it receives; once logged in it makes no call.
    """

    def __init__(self, raw: RawSocket) -> None:
        self.raw = raw
        self.events: list[tuple[str, Any]] = []
        self.acks: dict[int, asyncio.Future[list[Any]]] = {}
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Closed):
            while True:
                packet = await self.raw.receive(timeout=3600)
                assert isinstance(packet, str), packet
                if packet.startswith("42["):
                    # The event's offset (connection state recovery) is its last argument.
                    name, data, offset = json.loads(packet[2:])
                    assert isinstance(offset, str), packet
                    self.events.append((name, data))
                elif match := re.match(r"43(\d+)", packet):
                    self.acks.pop(int(match[1])).set_result(json.loads(packet[match.end() :]))

    async def ack(self, event: str, *args: Any) -> list[Any]:
        """Every argument of the ack of a call."""
        self.raw.next_id += 1
        answered = self.acks[self.raw.next_id] = asyncio.get_running_loop().create_future()
        await self.raw.send(f"42{self.raw.next_id}{json.dumps([event, *args])}")
        return await asyncio.wait_for(answered, 10)

    async def call(self, event: str, *args: Any) -> Any:
        """The result of a call that must succeed."""
        answer = await self.ack(event, *args)
        assert answer[0] is None, answer
        return answer[1]


@contextlib.asynccontextmanager
async def raw_socket(url: str, transport: str, headers: dict[str, str]) -> AsyncIterator[RawSocket]:
    """`RawSocket.open` with handshake headers (a session cookie)."""
    async with aiohttp.ClientSession(headers=headers) as session:
        raw = RawSocket(session, f"{url}/socket.io/?EIO=4&transport={transport}", transport)
        try:
            await raw._connect()
            yield raw
        finally:
            if raw.ws is None and raw.reader is not None and not raw.reader.done():
                with contextlib.suppress(aiohttp.ClientError):
                    await raw.send("1")
            if raw.reader is not None:
                raw.reader.cancel()
            if raw.ws is not None:
                await raw.ws.close()


@contextlib.asynccontextmanager
async def listening(url: str, transport: str, headers: dict[str, str]) -> AsyncIterator[Listener]:
    """A connected `Listener`, closed afterwards."""
    async with raw_socket(url, transport, headers) as raw:
        listener = Listener(raw)
        try:
            yield listener
        finally:
            listener.reader.cancel()


@pytest.fixture
async def listener(revoking, live_socket_server, transport):
    """`await listener(headers=None)`: a connected `Listener` on the test's transport."""
    async with contextlib.AsyncExitStack() as stack:

        async def open_listener(headers: dict[str, str] | None = None) -> Listener:
            return await stack.enter_async_context(
                listening(live_socket_server.url, transport, headers or {})
            )

        yield open_listener


@pytest.fixture
def rest(live_socket_server):
    with httpx.Client(base_url=live_socket_server.url, timeout=10) as client:
        yield client


def log_in(rest: httpx.Client, password: str = PASSWORD) -> dict[str, Any]:
    """A REST login of the user: the answer (access token, refresh token, user)."""
    answer = rest.post(
        "/authentication", json={"strategy": "local", "email": EMAIL, "password": password}
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


async def socket_of(listener, login: dict[str, Any]) -> Listener:
    """A socket logged in with the token of `login`."""
    client = await listener()
    await client.call(
        "create", "authentication", {"strategy": "jwt", "accessToken": login["accessToken"]}, {}
    )
    return client


def private_then_public(rest: httpx.Client, user_id: int) -> tuple[dict, dict]:
    """Publish a private event of the user, then a public one: (message, person)."""
    message = rest.post("/api/v1/messages", json={"text": "private", "userId": user_id})
    assert message.status_code == 201, message.text
    person = rest.post("/people", json={"name": "barrier"})
    assert person.status_code == 201, person.text
    return message.json(), person.json()


async def receives_private_events(client: Listener, rest: httpx.Client, user_id: int) -> None:
    """The socket gets the user's private events (so that their absence later means something)."""
    message, person = await sync_to_async(private_then_public)(rest, user_id)
    await eventually_async(lambda: ("people created", person) in client.events)
    assert ("api/v1/messages created", message) in client.events


async def assert_no_private_event(client: Listener, rest: httpx.Client, user_id: int) -> None:
    """A private event published now does not reach the socket; the public one after it does."""
    client.events.clear()
    message, person = await sync_to_async(private_then_public)(rest, user_id)
    await eventually_async(
        lambda: ("people created", person) in client.events, message="the barrier arrives"
    )
    assert ("api/v1/messages created", message) not in client.events


def _set_password(pk: int, password: str = "another password entirely") -> None:
    from tests.testapp.models import User

    user = User.objects.get(pk=pk)
    user.set_password(password)
    user.save()


def _set_password_racing(pk: int, password: str) -> None:
    """`_set_password` again while SQLite's in-memory test database refuses it (locked)."""
    from django.db import OperationalError

    for _ in range(50):
        try:
            _set_password(pk, password)
            return
        except OperationalError as exc:
            if "locked" not in str(exc):
                raise
    _set_password(pk, password)


def _deactivate(pk: int) -> None:
    from tests.testapp.models import User

    user = User.objects.get(pk=pk)
    user.is_active = False
    user.save()


def _delete(pk: int) -> None:
    from tests.testapp.models import User

    User.objects.get(pk=pk).delete()


def _patch_password(rest: httpx.Client, login: dict[str, Any]) -> None:
    answer = rest.patch(
        f"/users/{login['user']['id']}",
        json={"password": "another password entirely"},
        headers={"Authorization": f"Bearer {login['accessToken']}"},
    )
    assert answer.status_code == 200, answer.text


def _remove(rest: httpx.Client, login: dict[str, Any]) -> None:
    answer = rest.delete(
        "/authentication", headers={"Authorization": f"Bearer {login['accessToken']}"}
    )
    assert answer.status_code == 200, answer.text


def _reuse_refresh_token(rest: httpx.Client, login: dict[str, Any]) -> None:
    body = {"strategy": "refresh", "refreshToken": login["refreshToken"]}
    assert rest.post("/authentication", json=body).status_code == 201
    reused = rest.post("/authentication", json=body)
    assert reused.status_code == 401, reused.text


def _denylist(rest: httpx.Client, login: dict[str, Any]) -> None:
    from django_services.server.authentication.revocation import revoke

    revoke(login["authentication"]["payload"])


ENDINGS = {
    "password-patched-over-rest": _patch_password,
    "set-password": lambda rest, login: _set_password(login["user"]["id"]),
    "deactivated": lambda rest, login: _deactivate(login["user"]["id"]),
    "deleted": lambda rest, login: _delete(login["user"]["id"]),
    "authentication-remove": _remove,
    "refresh-family-reused": _reuse_refresh_token,
    "token-denylisted": _denylist,
}


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_a_login_ended_on_the_server_stops_the_private_events_of_its_sockets(
    listener, rest, user, ending
):
    login = await sync_to_async(log_in)(rest)
    socket = await socket_of(listener, login)
    await receives_private_events(socket, rest, user.pk)

    await sync_to_async(ENDINGS[ending])(rest, login)

    await assert_no_private_event(socket, rest, user.pk)


async def test_the_users_other_logins_stay_when_only_one_token_ends(listener, rest, user):
    first, second = await sync_to_async(log_in)(rest), await sync_to_async(log_in)(rest)
    ended, kept = await socket_of(listener, first), await socket_of(listener, second)

    await sync_to_async(_remove)(rest, first)

    await assert_no_private_event(ended, rest, user.pk)
    await receives_private_events(kept, rest, user.pk)


async def test_a_save_that_keeps_the_password_keeps_the_login(listener, rest, user):
    socket = await socket_of(listener, await sync_to_async(log_in)(rest))

    def promote() -> None:
        user.is_staff = True
        user.save()

    await sync_to_async(promote)()
    await receives_private_events(socket, rest, user.pk)


def _end_session(browser: Any, ending: str) -> None:
    if ending == "logout":
        browser.logout()
    else:  # the session ended without a logout: flushed, or deleted by key
        from importlib import import_module

        from django.conf import settings as django_settings

        store = import_module(django_settings.SESSION_ENGINE).SessionStore
        key = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
        if ending == "flush":
            store(key).flush()
        else:
            store().delete(key)


@pytest.mark.parametrize("ending", ["logout", "flush", "delete"])
async def test_a_django_session_that_ends_ends_the_login_of_the_sockets_made_with_it(
    listener, rest, user, settings, ending
):
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = await listener(headers={"Cookie": cookie})
    await receives_private_events(socket, rest, user.pk)

    await sync_to_async(_end_session)(browser, ending)

    await assert_no_private_event(socket, rest, user.pk)


async def test_a_django_logout_ends_the_token_login_a_socket_made_with_the_session_strategy(
    listener, rest, user, settings
):
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = await listener(headers={"Cookie": cookie})
    login = await socket.call("create", "authentication", {"strategy": "session"}, {})
    assert login["authentication"]["strategy"] == "session"
    await receives_private_events(socket, rest, user.pk)

    await sync_to_async(browser.logout)()

    await assert_no_private_event(socket, rest, user.pk)


async def test_a_password_change_ends_the_socket_of_a_session_django_keeps(
    listener, rest, user, settings
):
    """
    Django's password change view keeps the browser's session (`update_session_auth_hash`);
    the socket of that session, checked at the change, is logged out, and the session stays.
    """
    from django.contrib.auth import update_session_auth_hash
    from django.http import HttpRequest
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = await listener(headers={"Cookie": cookie})
    await receives_private_events(socket, rest, user.pk)

    def change_password_in_session() -> str:
        request = HttpRequest()
        request.session, request.user = browser.session, user
        user.set_password("another password entirely")
        user.save()
        update_session_auth_hash(request, user)
        request.session.save()
        return request.session.session_key

    kept = await sync_to_async(change_password_in_session)()

    await assert_no_private_event(socket, rest, user.pk)
    again = await listener(headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={kept}"})
    await receives_private_events(again, rest, user.pk)


async def test_a_socket_login_racing_with_a_password_change_does_not_outlive_it(
    listener, rest, user
):
    """
    A login checked before the change commits and filed after the change looked for the
    user's sockets is checked again: whichever comes first, the socket ends up logged out.
    """
    password = PASSWORD
    for round in range(8):
        login = await sync_to_async(log_in)(rest, password)
        socket = await listener()
        password = f"password of round {round}"
        token = {"strategy": "jwt", "accessToken": login["accessToken"]}
        answer, _ = await asyncio.gather(
            socket.ack("create", "authentication", token, {}),
            sync_to_async(_set_password_racing)(user.pk, password),
        )
        # Refused, or accepted and then ended: either way no private event gets through.
        assert answer[0] is None or answer[0]["code"] == 401, answer
        await assert_no_private_event(socket, rest, user.pk)

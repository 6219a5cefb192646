"""Authentication over the socket: the login belongs to the connection, as in Feathers."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
import socketio
from asgiref.sync import sync_to_async

from django_services import clock
from tests.server.socketio.conftest import EMAIL, PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}


@pytest.fixture
async def refused_client():
    """A client for connections the server refuses, with an HTTP session closed at the end."""
    session = aiohttp.ClientSession()
    client = socketio.AsyncClient(reconnection=False, http_session=session)
    yield client
    await client.shutdown()
    await session.close()


def token_for(user, **claims):
    from django_services.server.authentication import create_access_token

    return create_access_token(str(user.pk), claims)


def expiring_token(user, seconds):
    """A token like the server's, expiring in `seconds`."""
    from django_services.server.authentication.tokens import (
        access_token_claims,
        encode_access_token,
    )

    claims = access_token_claims(str(user.pk))
    claims["exp"] = int(clock.time()) + seconds
    return encode_access_token(claims)


async def test_a_local_login_authenticates_the_later_calls(connect, user):
    client = await connect()
    assert (await client.error("find", "secrets", {}))["message"] == "Not authenticated"

    login = await client.call("create", "authentication", LOCAL, {})
    assert set(login) == {"accessToken", "authentication", "user"}
    assert login["authentication"]["strategy"] == "local"
    assert login["user"] == {"id": user.pk, "email": EMAIL}

    # Later calls carry no token: the connection is logged in.
    assert await client.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]
    whoami = await client.call("find", "whoami", {})
    assert whoami["email"] == EMAIL
    assert whoami["authentication"]["strategy"] == "jwt"
    assert whoami["authentication"]["accessToken"] == login["accessToken"]


async def test_calls_authenticate_with_the_connections_own_token(connect, user):
    client = await connect()
    login = await client.call("create", "authentication", LOCAL, {})

    seen = await client.call("find", "request-seen", {})

    # The login's token itself, checked again; no Authorization header is made up for it.
    assert seen["email"] == EMAIL
    assert seen["authentication"]["accessToken"] == login["accessToken"]
    assert seen["authorization"] is None


async def test_a_failed_login_keeps_the_connection_as_it_was(connect, user):
    client = await connect()
    await client.call("create", "authentication", LOCAL, {})
    wrong = await client.error("create", "authentication", {**LOCAL, "password": "nope"}, {})
    assert (wrong["name"], wrong["message"]) == ("NotAuthenticated", "Invalid login")
    assert await client.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]


async def test_a_jwt_create_logs_a_new_socket_in_as_after_a_reconnect(connect, user):
    first = await connect()
    token = (await first.call("create", "authentication", LOCAL, {}))["accessToken"]

    # What the authentication client sends on the new socket after a reconnect.
    second = await connect()
    again = await second.call(
        "create", "authentication", {"strategy": "jwt", "accessToken": token}, {}
    )
    assert again["accessToken"] == token
    assert again["authentication"]["strategy"] == "jwt"
    assert await second.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]


async def test_logout_ends_the_login_of_that_socket_only(connect, user):
    one = await connect()
    other = await connect()
    token = (await one.call("create", "authentication", LOCAL, {}))["accessToken"]
    await other.call("create", "authentication", {"strategy": "jwt", "accessToken": token}, {})

    wrong_id = await one.error("remove", "authentication", "another-token", {})
    assert (wrong_id["code"], wrong_id["message"]) == (401, "Invalid access token")

    logout = await one.call("remove", "authentication", None, {})
    assert logout["accessToken"] == token
    assert logout["authentication"]["strategy"] == "jwt"
    assert (await one.error("find", "secrets", {}))["message"] == "Not authenticated"
    second = await one.error("remove", "authentication", None, {})
    assert second["message"] == "Invalid authentication information (no `strategy` set)"

    assert await other.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]


async def test_the_handshake_authorization_header_logs_in(connect, user):
    token = await sync_to_async(token_for)(user)
    for header in (f"Bearer {token}", f"JWT {token}", token):
        client = await connect(headers={"Authorization": header})
        assert await client.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]


async def test_another_scheme_in_the_handshake_leaves_the_socket_anonymous(connect, user):
    client = await connect(headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert (await client.error("find", "secrets", {}))["message"] == "Not authenticated"


@pytest.mark.parametrize(
    ("token", "message", "data_name"),
    [
        ("not-a-token", "jwt malformed", "JsonWebTokenError"),
        ("expired", "jwt expired", "TokenExpiredError"),
    ],
)
async def test_a_bad_handshake_token_refuses_the_connection(
    live_socket_server, refused_client, user, token, message, data_name
):
    if token == "expired":
        token = await sync_to_async(expiring_token)(user, -10)
    client = refused_client
    refused = asyncio.get_running_loop().create_future()
    client.on("connect_error", lambda data: refused.set_result(data))
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(
            live_socket_server.url,
            headers={"Authorization": f"Bearer {token}"},
            transports=["websocket"],
        )
    data = await asyncio.wait_for(refused, 10)
    assert data["message"] == message
    assert data["data"]["name"] == data_name


async def still_connected(client) -> bool:
    """
    Whether the server kept `client` connected: a disconnect the clock's alarm started runs on
    the server's loop before the server reads this call, which it then never answers.
    """
    return await client.call("find", "people", {}) == [] and not client.disconnected.is_set()


async def test_the_socket_is_disconnected_when_its_token_expires(connect, user, manual_clock):
    token = await sync_to_async(expiring_token)(user, 60)
    client = await connect(headers={"Authorization": f"Bearer {token}"})
    assert await client.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]
    manual_clock.advance(59)
    assert await still_connected(client)
    manual_clock.advance(1)
    await asyncio.wait_for(client.disconnected.wait(), 10)
    assert not client.sio.connected


async def test_a_login_over_the_socket_arms_the_expiry_too(connect, user, manual_clock):
    token = await sync_to_async(expiring_token)(user, 60)
    client = await connect()
    await client.call("create", "authentication", {"strategy": "jwt", "accessToken": token}, {})
    manual_clock.advance(59)
    assert await still_connected(client)
    manual_clock.advance(1)
    await asyncio.wait_for(client.disconnected.wait(), 10)


async def test_a_logout_disarms_the_expiry(connect, user, manual_clock):
    token = await sync_to_async(expiring_token)(user, 60)
    client = await connect()
    await client.call("create", "authentication", {"strategy": "jwt", "accessToken": token}, {})
    await client.call("remove", "authentication", None, {})
    manual_clock.advance(3600)
    assert await still_connected(client)


async def test_a_django_session_cookie_logs_in(connect, live_socket_server, user, settings):
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    client = await connect(headers={"Cookie": cookie})
    whoami = await client.call("create", "whoami", {}, {})
    assert whoami == {"email": EMAIL, "authentication": {"strategy": "session"}}

    # Logging out of Django ends the socket's login at its next call.
    await sync_to_async(browser.logout)()
    assert (await client.error("find", "whoami", {}))["code"] == 401


async def test_a_handshake_from_another_origin_is_refused(
    live_socket_server, refused_client, user, settings
):
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    await sync_to_async(browser.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    with pytest.raises(socketio.exceptions.ConnectionError):
        await refused_client.connect(
            live_socket_server.url,
            headers={"Origin": "https://evil.example", "Cookie": cookie},
            transports=["websocket"],
        )


async def test_logins_over_the_socket_are_throttled(connect, user, settings):
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "AUTHENTICATION": {**settings.DJANGO_SERVICES["AUTHENTICATION"], "THROTTLE_RATE": "3/min"},
    }
    from django.core.cache import cache

    await sync_to_async(cache.clear)()
    client = await connect()
    wrong = {**LOCAL, "password": "guess"}
    for _ in range(3):
        assert (await client.error("create", "authentication", wrong, {}))["code"] == 401
    throttled = await client.error("create", "authentication", wrong, {})
    assert (throttled["name"], throttled["code"]) == ("TooManyRequests", 429)
    # REST's Retry-After header, which a socket cannot carry, is in the error's data.
    assert 1 <= throttled["data"]["retryAfter"] <= 60


def server_expiry(live_socket_server, client):
    """When the server will disconnect `client` (its timer's due time, as a Unix time)."""
    connection = live_socket_server.application.server.connections[client.sio.get_sid()]
    return connection.expiry_at, connection.expiry.when()


def exp_of(token):
    import jwt

    return jwt.decode(token, options={"verify_signature": False})["exp"]


@pytest.mark.parametrize("strategy", ["refresh", "jwt"])
async def test_re_authenticating_over_the_socket_moves_the_expiry(
    connect, live_socket_server, user, settings, strategy
):
    auth = settings.DJANGO_SERVICES["AUTHENTICATION"]
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "AUTHENTICATION": {**auth, "AUTH_STRATEGIES": ["local", "jwt", "refresh"]},
    }
    client = await connect()
    login = await client.call("create", "authentication", LOCAL, {})
    soon = await sync_to_async(expiring_token)(user, 30)
    await client.call("create", "authentication", {"strategy": "jwt", "accessToken": soon}, {})
    expiry_at, due = server_expiry(live_socket_server, client)
    assert expiry_at == exp_of(soon) and abs(due - exp_of(soon)) < 2

    if strategy == "refresh":
        data = {"strategy": "refresh", "refreshToken": login["refreshToken"]}
    else:
        data = {"strategy": "jwt", "accessToken": await sync_to_async(token_for)(user)}
    newer = await client.call("create", "authentication", data, {})
    expiry_at, due = server_expiry(live_socket_server, client)
    assert expiry_at == exp_of(newer["accessToken"]) > exp_of(soon)
    assert abs(due - expiry_at) < 2
    assert await client.call("find", "secrets", {}) == [{"id": 1, "secret": "42"}]

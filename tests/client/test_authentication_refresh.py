"""
The authentication client's refresh tokens against our own server (uvicorn on loopback: REST
for the four HTTP connection kinds, socket.io for the sync and async socket connections).
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import pytest
import requests
import socketio

from django_services.client import App, MemoryStorage, authentication_client, socketio_client
from django_services.clock import ManualClock
from django_services.errors import NotAuthenticated
from tests.server.socketio.conftest import EMAIL, PASSWORD, SECRET, SERVICES, LiveSocketServer
from tests.waiting import eventually, eventually_async

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
AUTHENTICATION = {"SECRET": SECRET, "AUTH_STRATEGIES": ["local", "jwt", "refresh"]}


@pytest.fixture
def server(settings, transactional_db):
    settings.ROOT_URLCONF = "tests.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": AUTHENTICATION}
    live = LiveSocketServer()
    live.start()
    yield live
    live.stop()


@pytest.fixture
def user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)


def expired_copy(token: str) -> str:
    """The same access token (user, login), signed as the server does, but expired."""
    from django_services.server.authentication.tokens import encode_access_token

    claims = jwt.decode(token, options={"verify_signature": False})
    claims["exp"] = int(time.time()) - 10
    return encode_access_token(claims)


def expire(app) -> str:
    """Make the app's access token an expired one, as if its lifetime had passed."""
    stale = expired_copy(app.authentication.result["accessToken"])
    app.authentication.result = {**app.authentication.result, "accessToken": stale}
    return stale


def refresh_rows():
    """(spent, revoked, total) refresh tokens on the server."""
    from django_services.models import RefreshToken

    rows = list(RefreshToken.objects.values_list("used_at", "revoked_at"))
    return sum(u is not None for u, _ in rows), sum(r is not None for _, r in rows), len(rows)


def test_the_refresh_token_is_kept_and_an_expired_call_refreshes_once(harness, server, user):
    storage = MemoryStorage()
    app = harness.app(server.url)
    app.configure(authentication_client(storage=storage))
    first = harness.run(app.authenticate(LOCAL))
    assert storage.get("feathers-refresh") == first["refreshToken"]

    stale = expire(app)
    assert harness.run(app.service("secrets").find()) == [{"id": 1, "secret": "42"}]
    assert app.authentication.result["accessToken"] not in (stale, first["accessToken"])
    assert storage.get("feathers-refresh") not in (None, first["refreshToken"])
    assert storage.get("feathers-jwt") == app.authentication.result["accessToken"]
    assert refresh_rows() == (1, 0, 2)


def test_concurrent_calls_with_an_expired_token_cause_one_refresh(harness, server, user):
    app = harness.app(server.url)
    app.configure(authentication_client())
    harness.run(app.authenticate(LOCAL))
    expire(app)
    secrets = app.service("secrets")
    if harness.is_async:

        async def together():
            return await asyncio.gather(*(secrets.find() for _ in range(8)))

        results = harness.run(together())
    else:
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda _: secrets.find(), range(8)))
    assert results == [[{"id": 1, "secret": "42"}]] * 8
    # One refresh: one token spent, its heir live, no reuse (which would revoke the login).
    assert refresh_rows() == (1, 0, 2)


def test_a_token_the_caller_set_is_not_replaced_by_the_client_s(harness, server, user):
    app = harness.app(server.url)
    app.configure(authentication_client())
    harness.run(app.authenticate(LOCAL))
    # The caller's own token (another login), expired: its 401 is the caller's to handle.
    other = requests.post(f"{server.url}/authentication", json=LOCAL, timeout=10).json()
    headers = {"Authorization": f"Bearer {expired_copy(other['accessToken'])}"}
    with pytest.raises(NotAuthenticated) as caught:
        harness.run(app.service("secrets").find(headers=headers))
    assert caught.value.data["name"] == "TokenExpiredError"
    assert refresh_rows() == (0, 0, 2)


def test_re_authenticate_with_an_expired_stored_token_refreshes(harness, server, user):
    storage = MemoryStorage()
    app = harness.app(server.url)
    app.configure(authentication_client(storage=storage))
    harness.run(app.authenticate(LOCAL))
    storage.set("feathers-jwt", expired_copy(storage.get("feathers-jwt")))

    again = App().configure(harness.connect(server.url))
    again.configure(authentication_client(storage=storage))
    result = harness.run(again.re_authenticate())
    assert result["authentication"]["strategy"] == "refresh"
    assert harness.run(again.service("secrets").find()) == [{"id": 1, "secret": "42"}]


def test_logout_ends_the_login_and_forgets_the_refresh_token(harness, server, user):
    storage = MemoryStorage()
    app = harness.app(server.url)
    app.configure(authentication_client(storage=storage))
    token = harness.run(app.authenticate(LOCAL))["refreshToken"]
    harness.run(app.logout())
    assert storage.get("feathers-refresh") is None
    answer = requests.post(
        f"{server.url}/authentication",
        json={"strategy": "refresh", "refreshToken": token},
        timeout=10,
    )
    assert (answer.status_code, answer.json()["message"]) == (401, "refresh token revoked")
    # A refresh that fails (the login ended) forgets the token, and raises.
    app.authentication.result = {"accessToken": "x"}
    storage.set("feathers-refresh", token)
    with pytest.raises(NotAuthenticated):
        harness.run(app.authentication.refresh())
    assert storage.get("feathers-refresh") is None


def server_expiry_at(server, app):
    sid = app.connection.client.get_sid() if hasattr(app.connection.client, "get_sid") else None
    return server.application.server.connections[sid].expiry_at


def expiry_of(token):
    return jwt.decode(token, options={"verify_signature": False})["exp"]


def test_a_sync_socket_refreshes_before_its_token_expires(server, user, settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": SERVICES,
        "AUTHENTICATION": {**AUTHENTICATION, "JWT": {"EXPIRES_IN": 30}},
    }
    storage = MemoryStorage()
    clock = ManualClock()
    connection = socketio_client(server.url)
    connection.clock = clock
    app = App().configure(connection).configure(authentication_client(storage=storage))
    try:
        first = app.authenticate(LOCAL)
        # Halfway to the expiry (the margin, 60 s, is longer than the lifetime).
        eventually(lambda: clock.waits)
        (delay,) = clock.waits
        assert delay == pytest.approx((expiry_of(first["accessToken"]) - clock.time()) / 2)
        # The timer waits on the clock: nothing is refreshed before it has moved.
        assert storage.get("feathers-refresh") == first["refreshToken"]
        clock.advance(delay)
        eventually(lambda: storage.get("feathers-refresh") != first["refreshToken"])
        token = app.authentication.result["accessToken"]
        assert token != first["accessToken"]
        assert expiry_of(token) >= expiry_of(first["accessToken"])
        # The socket logged in with the new token: the server now expires it with that one.
        eventually(lambda: server_expiry_at(server, app) == expiry_of(token))
        assert app.service("secrets").find() == [{"id": 1, "secret": "42"}]
        app.logout()
    finally:
        connection.close()


async def test_an_async_socket_refreshes_before_its_token_expires(server, user, settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": SERVICES,
        "AUTHENTICATION": {**AUTHENTICATION, "JWT": {"EXPIRES_IN": 30}},
    }
    storage = MemoryStorage()
    clock = ManualClock()
    connection = socketio_client(server.url, socketio.AsyncClient())
    connection.clock = clock
    app = App().configure(connection).configure(authentication_client(storage=storage))
    try:
        first = await app.authenticate(LOCAL)
        await eventually_async(lambda: clock.waits)  # the timer waits on the clock
        (delay,) = clock.waits
        assert delay == pytest.approx((expiry_of(first["accessToken"]) - clock.time()) / 2)
        assert storage.get("feathers-refresh") == first["refreshToken"]
        clock.advance(delay)
        await eventually_async(lambda: storage.get("feathers-refresh") != first["refreshToken"])
        assert app.authentication.result["authentication"]["strategy"] == "refresh"
        assert await app.service("secrets").find() == [{"id": 1, "secret": "42"}]
        await app.logout()
    finally:
        await connection.aclose()

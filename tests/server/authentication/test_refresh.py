"""
Refresh tokens on a real server (uvicorn, REST and socket.io on one port): login, rotation,
reuse detection, refusals, logout and password change, over both transports.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import httpx
import jwt
import pytest
import socketio
from asgiref.sync import sync_to_async

from tests.server.socketio.conftest import SERVICES, LiveSocketServer

from .conftest import EMAIL, PASSWORD, SECRET

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
REFRESH_ON = {"SECRET": SECRET, "AUTH_STRATEGIES": ["local", "jwt", "refresh"]}


class Rest:
    """The authentication service and `secrets` over HTTP; answers as (status, body)."""

    def __init__(self, url: str) -> None:
        self.http = httpx.AsyncClient(base_url=url, timeout=10)

    async def authenticate(self, data: dict) -> tuple[int, dict]:
        response = await self.http.post("/authentication", json=data)
        return response.status_code, response.json()

    async def logout(self, token: str) -> tuple[int, dict]:
        headers = {"Authorization": f"Bearer {token}"}
        response = await self.http.delete("/authentication", headers=headers)
        return response.status_code, response.json()

    async def secrets(self, token: str) -> tuple[int, object]:
        response = await self.http.get("/secrets", headers={"Authorization": f"Bearer {token}"})
        return response.status_code, response.json()

    async def close(self) -> None:
        await self.http.aclose()


class Socket:
    """The same over one socket.io connection; a failure's status is its error's code."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sio = socketio.AsyncClient(reconnection=False)

    async def ack(self, *args: object) -> tuple[int, dict]:
        if not self.sio.connected:
            await self.sio.connect(self.url, transports=["websocket"])
        answer = await self.sio.call(args[0], args[1:], timeout=10)
        answer = answer if isinstance(answer, tuple) else (answer,)
        if answer[0] is not None:
            return answer[0]["code"], answer[0]
        return 201 if args[0] == "create" else 200, answer[1]

    async def authenticate(self, data: dict) -> tuple[int, dict]:
        return await self.ack("create", "authentication", data, {})

    async def logout(self, token: str) -> tuple[int, dict]:
        await self.authenticate({"strategy": "jwt", "accessToken": token})
        return await self.ack("remove", "authentication", None, {})

    async def secrets(self, token: str) -> tuple[int, object]:
        # Over a socket the token is presented by logging the connection in with it.
        status, body = await self.authenticate({"strategy": "jwt", "accessToken": token})
        if status != 201:
            return status, body
        return await self.ack("find", "secrets", {})

    async def close(self) -> None:
        await self.sio.shutdown()


@pytest.fixture
def server(settings, transactional_db):
    settings.ROOT_URLCONF = "tests.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": REFRESH_ON}
    live = LiveSocketServer()
    live.start()
    yield live
    live.stop()


@pytest.fixture(params=["rest", "socketio"])
async def api(request, server) -> AsyncIterator[Rest | Socket]:
    caller = Rest(server.url) if request.param == "rest" else Socket(server.url)
    yield caller
    await caller.close()


@pytest.fixture
def user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)


def refresh(token: object) -> dict:
    return {"strategy": "refresh", "refreshToken": token}


async def login(api) -> dict:
    status, body = await api.authenticate(LOCAL)
    assert status == 201, body
    return body


def assert_refused(answer: tuple[int, dict], message: str | None = None) -> None:
    status, body = answer
    assert (status, body["name"]) == (401, "NotAuthenticated"), body
    if message is not None:
        assert body["message"] == message


async def test_a_login_answers_a_refresh_token_beside_the_access_token(api, user):
    body = await login(api)
    assert list(body) == ["accessToken", "refreshToken", "authentication", "user"]
    header = jwt.get_unverified_header(body["refreshToken"])
    assert header["typ"] == "refresh"
    # The access token names the login (the refresh token's family) it belongs to.
    assert jwt.decode(body["accessToken"], options={"verify_signature": False})["sid"]


async def test_a_refresh_answers_a_new_pair_and_the_user_and_spends_the_token(api, user):
    first = await login(api)
    status, second = await api.authenticate(refresh(first["refreshToken"]))
    assert status == 201, second
    assert second["authentication"]["strategy"] == "refresh"
    assert second["user"] == {"id": user.pk, "email": EMAIL}
    assert second["accessToken"] != first["accessToken"]
    assert second["refreshToken"] != first["refreshToken"]
    assert (await api.secrets(second["accessToken"]))[0] == 200
    # Both access tokens belong to the same login.
    sids = [
        jwt.decode(body["accessToken"], options={"verify_signature": False})["sid"]
        for body in (first, second)
    ]
    assert sids[0] == sids[1]


async def test_a_reused_token_ends_its_whole_family(api, user):
    first = await login(api)
    other = await login(api)
    status, second = await api.authenticate(refresh(first["refreshToken"]))
    assert status == 201
    status, third = await api.authenticate(refresh(second["refreshToken"]))
    assert status == 201

    assert_refused(
        await api.authenticate(refresh(first["refreshToken"])),
        "refresh token reused: its login is ended",
    )
    # Every heir of the reused token is refused from then on; another login is not.
    assert_refused(await api.authenticate(refresh(third["refreshToken"])))
    assert_refused(await api.authenticate(refresh(second["refreshToken"])))
    assert (await api.authenticate(refresh(other["refreshToken"])))[0] == 201


def expired_refresh_token(user) -> str:
    from django_services.server.authentication.refresh import issue_refresh_token

    token, _ = issue_refresh_token(user, now=time.time() - 15 * 86400)
    return token


def foreign_refresh_token(user) -> str:
    now = int(time.time())
    claims = {"iat": now, "exp": now + 600, "aud": "https://yourdomain.com", "iss": "feathers"}
    claims |= {"sub": str(user.pk), "jti": "x"}
    return jwt.encode(claims, "another-secret-" * 4, headers={"typ": "refresh"})


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("garbage", "jwt malformed"),
        ("empty", "No refresh token"),
        ("object", "No refresh token"),
        ("expired", "jwt expired"),
        ("foreign", "invalid signature"),
        ("access", "invalid token type"),
    ],
)
async def test_a_bad_refresh_token_is_refused(api, user, kind, message):
    tokens = {
        "garbage": "not.a.token",
        "empty": "",
        "object": {"$ne": None},
        "expired": await sync_to_async(expired_refresh_token)(user),
        "foreign": await sync_to_async(foreign_refresh_token)(user),
        "access": (await login(api))["accessToken"],
    }
    assert_refused(await api.authenticate(refresh(tokens[kind])), message)


async def test_a_refresh_token_is_no_bearer_token(api, user):
    token = (await login(api))["refreshToken"]
    assert_refused(await api.secrets(token), "invalid token type")


async def test_logout_ends_the_family_of_its_access_token(api, user):
    first = await login(api)
    other = await login(api)
    status, _ = await api.logout(first["accessToken"])
    assert status == 200
    assert_refused(await api.authenticate(refresh(first["refreshToken"])), "refresh token revoked")
    assert (await api.authenticate(refresh(other["refreshToken"])))[0] == 201


async def test_a_password_change_ends_every_family_of_the_user(api, user):
    tokens = [(await login(api))["refreshToken"] for _ in range(2)]
    user.set_password("a new password")
    await sync_to_async(user.save)()
    for token in tokens:
        assert_refused(
            await api.authenticate(refresh(token)), "refresh token revoked by a password change"
        )


@pytest.mark.parametrize("change", ["inactive", "deleted"])
async def test_the_tokens_of_an_inactive_or_deleted_user_are_refused(api, user, change):
    token = (await login(api))["refreshToken"]
    if change == "inactive":
        user.is_active = False
        await sync_to_async(user.save)()
    else:
        await sync_to_async(user.delete)()
    assert_refused(await api.authenticate(refresh(token)), "User not found or inactive")


async def test_without_the_refresh_strategy_there_is_no_refresh_token(api, user, settings):
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": {"SECRET": SECRET}}
    body = await login(api)
    assert "refreshToken" not in body
    assert_refused(
        await api.authenticate(refresh("anything")),
        "Invalid authentication information (strategy not allowed in authStrategies)",
    )


async def test_only_a_hash_of_each_token_is_stored(api, user):
    from django_services.models import RefreshToken

    token = (await login(api))["refreshToken"]
    rows = await sync_to_async(list)(RefreshToken.objects.values())
    assert len(rows) == 1
    assert all(token not in str(value) for value in rows[0].values())
    assert rows[0]["subject"] == str(user.pk)


def test_of_two_refreshes_racing_with_one_token_exactly_one_wins(server, user):
    """Over real HTTP, from two threads at once: one heir at most, and the reuse rule holds."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import requests

    url = f"{server.url}/authentication"
    with requests.Session() as http:
        for _ in range(5):
            token = http.post(url, json=LOCAL, timeout=10).json()["refreshToken"]
            barrier = threading.Barrier(2)

            def race(token: str = token, barrier: threading.Barrier = barrier):
                barrier.wait(5)
                for _ in range(50):
                    answer = requests.post(url, json=refresh(token), timeout=10)
                    # SQLite's shared in-memory database may answer "busy, send it again"
                    # (503): a client sends it again, as these do.
                    if answer.status_code != 503:
                        return answer
                return answer

            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda _: race(), range(2)))
            statuses = sorted(answer.status_code for answer in answers)
            assert statuses == [201, 401], [answer.json() for answer in answers]
            winner = next(answer.json() for answer in answers if answer.status_code == 201)
            # The loser presented a spent token: the family ends, the winner's heir with it.
            again = http.post(url, json=refresh(winner["refreshToken"]), timeout=10)
            assert again.status_code == 401, again.json()


def test_a_session_login_answers_a_refresh_token_too(server, user, settings):
    from django.test import Client as DjangoClient

    settings.DJANGO_SERVICES = {
        "SERVICES": SERVICES,
        "AUTHENTICATION": {**REFRESH_ON, "AUTH_STRATEGIES": ["session", "jwt", "refresh"]},
    }
    import requests

    browser = DjangoClient()
    browser.force_login(user)
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = "abcdefghijklmnopqrstuvwxyzABCDEF"
    answer = requests.post(
        f"{server.url}/authentication",
        json={"strategy": "session"},
        headers={
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
        },
        timeout=10,
    )
    assert answer.status_code == 201, answer.json()
    refreshed = requests.post(
        f"{server.url}/authentication",
        json={"strategy": "refresh", "refreshToken": answer.json()["refreshToken"]},
        timeout=10,
    )
    assert refreshed.status_code == 201
    assert refreshed.json()["user"]["email"] == EMAIL

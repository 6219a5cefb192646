"""
Accounts belong to their owners: the bare `UserService` on a real server (uvicorn, REST and
socket.io on one port), each rule one case over both transports, with real tokens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import socketio
from asgiref.sync import sync_to_async
from django.contrib.auth.hashers import check_password

from django_services import clock
from django_services.server.authentication import create_access_token
from tests.server.socketio.conftest import LiveSocketServer

from .conftest import PASSWORD, SECRET

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]

SERVICES = {
    "users": "django_services.server.authentication.UserService",
    "recent-users": "tests.server.authentication.services.RecentLoginUserService",
    "directory": "tests.server.authentication.services.DirectoryUserService",
}
NEW = "a different long password"
VERBS = {"find": "GET", "get": "GET", "create": "POST", "update": "PUT", "patch": "PATCH"}


class Rest:
    """Service calls over HTTP; answers as (status, body)."""

    def __init__(self, url: str) -> None:
        self.http = httpx.AsyncClient(base_url=url, timeout=10)

    async def call(self, token: str | None, method: str, path: str, *args: Any) -> tuple:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        verb = VERBS.get(method, "DELETE")
        url = f"/{path}/{args[0]}" if method in ("get", "update", "patch", "remove") else f"/{path}"
        body = args[-1] if method in ("create", "update", "patch") else None
        response = await self.http.request(verb, url, json=body, headers=headers)
        return response.status_code, response.json()

    async def login(self, body: dict) -> tuple:
        response = await self.http.post("/authentication", json=body)
        return response.status_code, response.json()

    async def close(self) -> None:
        await self.http.aclose()


class Socket:
    """The same over socket.io: one connection per token, logged in with it; a failure's
    status is its error's code."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sockets: dict[str | None, socketio.AsyncClient] = {}

    async def _socket(self, token: str | None) -> socketio.AsyncClient:
        if token not in self.sockets:
            sio = socketio.AsyncClient(reconnection=False)
            await sio.connect(self.url, transports=["websocket"])
            self.sockets[token] = sio
            if token is not None:
                status, body = await self._ack(
                    sio,
                    "create",
                    "authentication",
                    {
                        "strategy": "jwt",
                        "accessToken": token,
                    },
                )
                assert status == 201, body
        return self.sockets[token]

    @staticmethod
    async def _ack(sio: socketio.AsyncClient, method: str, *args: Any) -> tuple:
        answer = await sio.call(method, (*args, {}) if method != "find" else args, timeout=10)
        answer = answer if isinstance(answer, tuple) else (answer,)
        if answer[0] is not None:
            return answer[0]["code"], answer[0]
        return 201 if method == "create" else 200, answer[1]

    async def call(self, token: str | None, method: str, path: str, *args: Any) -> tuple:
        if method == "find":
            args = ({},)
        return await self._ack(await self._socket(token), method, path, *args)

    async def login(self, body: dict) -> tuple:
        return await self._ack(await self._socket(None), "create", "authentication", body)

    async def close(self) -> None:
        for sio in self.sockets.values():
            await sio.shutdown()


@pytest.fixture
def server(settings, transactional_db):
    settings.ROOT_URLCONF = "tests.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": {"SECRET": SECRET}}
    with LiveSocketServer() as live:
        yield live


@pytest.fixture(params=["rest", "socketio"])
async def api(request, server) -> AsyncIterator[Rest | Socket]:
    caller = Rest(server.url) if request.param == "rest" else Socket(server.url)
    yield caller
    await caller.close()


def make_user(email: str, **extra: Any) -> Any:
    from tests.testapp.models import User

    return User.objects.create_user(email=email, password=PASSWORD, **extra)


@pytest.fixture
def ann(transactional_db):
    return make_user("ann@example.com")


@pytest.fixture
def bob(transactional_db):
    return make_user("bob@example.com")


@pytest.fixture
def staff(transactional_db):
    return make_user("staff@example.com", is_staff=True)


def token(user: Any) -> str:
    return create_access_token(str(user.pk), user=user)


def stored(user: Any) -> Any:
    user.refresh_from_db()
    return user


def records(body: Any) -> list[dict]:
    return body["data"] if isinstance(body, dict) else body


async def test_anyone_signs_up_but_anonymous_calls_are_refused(api, ann):
    status, body = await api.call(
        None, "create", "users", {"email": "new@example.com", "password": PASSWORD}
    )
    assert status == 201, body
    for method, *args in [
        ("find",),
        ("get", ann.pk),
        ("patch", ann.pk, {"password": "x y z"}),
        ("update", ann.pk, {"email": "ann@example.com", "password": "x"}),
        ("remove", ann.pk),
    ]:
        status, body = await api.call(None, method, "users", *args)
        assert (status, body["name"]) == (401, "NotAuthenticated"), (method, body)
    assert check_password(PASSWORD, (await sync_to_async(stored)(ann)).password)


async def test_a_user_finds_and_gets_only_their_own_account(api, ann, bob):
    status, body = await api.call(token(ann), "find", "users")
    assert status == 200, body
    assert records(body) == [{"id": ann.pk, "email": ann.email}]
    assert await api.call(token(ann), "get", "users", ann.pk) == (
        200,
        {"id": ann.pk, "email": ann.email},
    )
    status, body = await api.call(token(ann), "get", "users", bob.pk)
    assert (status, body["name"]) == (404, "NotFound"), body


@pytest.mark.parametrize(
    ("method", "data"),
    [
        ("patch", {"password": NEW}),
        ("patch", {"email": "taken@example.com"}),
        ("update", {"email": "taken@example.com", "password": NEW}),
        ("remove", None),
    ],
)
async def test_another_users_account_is_404_and_untouched(api, ann, bob, method, data):
    args = (bob.pk,) if data is None else (bob.pk, {**data, "oldPassword": PASSWORD})
    status, body = await api.call(token(ann), method, "users", *args)
    assert (status, body["name"]) == (404, "NotFound"), body
    after = await sync_to_async(stored)(bob)
    assert after.email == "bob@example.com"
    assert check_password(PASSWORD, after.password)


async def test_a_widened_queryset_shows_others_but_keeps_writes_to_owners(api, ann, bob):
    status, body = await api.call(token(ann), "find", "directory")
    assert {record["id"] for record in records(body)} == {ann.pk, bob.pk}
    assert (await api.call(token(ann), "get", "directory", bob.pk))[0] == 200
    for method, *args in [("patch", bob.pk, {"email": "x@example.com"}), ("remove", bob.pk)]:
        status, body = await api.call(token(ann), method, "directory", *args)
        assert (status, body["name"]) == (403, "Forbidden"), body
    assert (await sync_to_async(stored)(bob)).email == "bob@example.com"


async def test_a_signed_up_user_cannot_take_over_the_superuser(api, transactional_db):
    from tests.testapp.models import User

    root = await sync_to_async(User.objects.create_superuser)("root@example.com", PASSWORD)
    creds = {"email": "mallory@example.com", "password": "mallory's long password"}
    assert (await api.call(None, "create", "users", creds))[0] == 201
    status, login = await api.login({"strategy": "local", **creds})
    assert status == 201, login
    for method in ("patch", "update"):
        status, body = await api.call(
            login["accessToken"],
            method,
            "users",
            root.pk,
            {"email": "root@example.com", "password": "owned", "oldPassword": creds["password"]},
        )
        assert status == 404, body
    status, body = await api.login(
        {"strategy": "local", "email": "root@example.com", "password": "owned"}
    )
    assert status == 401, body


async def test_an_owner_changes_their_account_and_removes_it(api, ann):
    body = {"email": "ann@lovelace.example"}
    assert await api.call(token(ann), "patch", "users", ann.pk, body) == (
        200,
        {"id": ann.pk, "email": "ann@lovelace.example"},
    )
    assert (await api.call(token(ann), "remove", "users", ann.pk))[0] == 200
    from tests.testapp.models import User

    assert not await User.objects.filter(pk=ann.pk).aexists()


@pytest.mark.parametrize(
    ("proof", "message"),
    [
        ({}, "Give your current password to change it."),
        ({"oldPassword": "not it"}, "Your old password was entered incorrectly."),
        ({"oldPassword": 12}, "Your old password was entered incorrectly."),
    ],
)
@pytest.mark.parametrize("method", ["patch", "update"])
async def test_an_owner_changing_their_password_proves_the_current_one(
    api, ann, method, proof, message
):
    data = {"email": ann.email, "password": NEW, **proof}
    status, body = await api.call(token(ann), method, "users", ann.pk, data)
    assert (status, body["name"]) == (400, "BadRequest"), body
    assert body["errors"] == {"oldPassword": [message]}
    assert check_password(PASSWORD, (await sync_to_async(stored)(ann)).password)

    data["oldPassword"] = PASSWORD
    status, body = await api.call(token(ann), method, "users", ann.pk, data)
    assert (status, body) == (200, {"id": ann.pk, "email": ann.email})
    status, _ = await api.login({"strategy": "local", "email": ann.email, "password": NEW})
    assert status == 201


async def test_staff_see_every_account_and_set_a_password_without_proof(api, ann, staff):
    status, body = await api.call(token(staff), "find", "users")
    assert {record["id"] for record in records(body)} == {ann.pk, staff.pk}
    status, body = await api.call(token(staff), "patch", "users", ann.pk, {"password": NEW})
    assert (status, body) == (200, {"id": ann.pk, "email": ann.email})
    assert check_password(NEW, (await sync_to_async(stored)(ann)).password)
    # Their own password, as anyone's own, needs the current one.
    status, body = await api.call(token(staff), "patch", "users", staff.pk, {"password": NEW})
    assert (status, body["errors"]) == (
        400,
        {"oldPassword": ["Give your current password to change it."]},
    )


async def test_a_recent_login_proves_the_password_where_the_service_says_so(api, ann):
    with clock.replaced(clock.ManualClock()) as manual:
        fresh = token(ann)
        manual.advance(299)
        status, body = await api.call(fresh, "patch", "recent-users", ann.pk, {"password": NEW})
        assert status == 200, body
        renewed = token(await sync_to_async(stored)(ann))
        manual.advance(301)
        status, body = await api.call(
            renewed, "patch", "recent-users", ann.pk, {"password": PASSWORD}
        )
        assert (status, body["errors"]) == (
            400,
            {"oldPassword": ["Give your current password to change it."]},
        )
    # The bare service counts no login's age.
    status, body = await api.call(
        token(await sync_to_async(stored)(ann)), "patch", "users", ann.pk, {"password": PASSWORD}
    )
    assert status == 400, body


def test_two_users_writing_at_once_never_write_each_others_account(server, ann, bob):
    """Over real HTTP from two threads: each patches its own and the other's account."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import requests

    pairs = [(ann, bob), (bob, ann)]
    barrier = threading.Barrier(2)

    def send(verb: str, path: str, **options: Any) -> requests.Response:
        for _ in range(50):
            answer = requests.request(verb, f"{server.url}{path}", timeout=10, **options)
            if answer.status_code != 503:  # SQLite's "busy, send it again"
                return answer
        return answer

    def writes(me: Any, other: Any) -> list[tuple[str, int]]:
        email, password = me.email, PASSWORD
        answers = []
        barrier.wait(5)
        for n in range(10):
            # A password change ends the tokens issued before it: log in again each time.
            login = {"strategy": "local", "email": email, "password": password}
            access = send("POST", "/authentication", json=login).json()["accessToken"]
            headers = {"Authorization": f"Bearer {access}"}
            for target, label in ((other, "other"), (me, "own")):
                body = {
                    "email": f"{label}{n}-{me.pk}@example.com",
                    "password": f"pw {n} {me.pk}",
                    "oldPassword": password,
                }
                answer = send("PATCH", f"/users/{target.pk}", json=body, headers=headers)
                answers.append((label, answer.status_code))
            email, password = f"own{n}-{me.pk}@example.com", f"pw {n} {me.pk}"
        return answers

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda pair: writes(*pair), pairs))
    for answers in results:
        assert {status for label, status in answers if label == "other"} == {404}, answers
        assert {status for label, status in answers if label == "own"} == {200}, answers
    for me in (ann, bob):
        me.refresh_from_db()
        assert me.email == f"own9-{me.pk}@example.com"
        assert check_password(f"pw 9 {me.pk}", me.password)

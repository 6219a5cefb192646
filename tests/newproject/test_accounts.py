"""
Accounts in a new project with Django's own `User`: the users service as the docs register it
keeps each account to its owner, and a Feathers client logs in with its email body, over REST
and socket.io, against the project served by uvicorn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import socketio

pytestmark = pytest.mark.usefixtures("no_tracebacks")

PASSWORD = "a long enough password"

ACCOUNTS = f"""
    from django.contrib.auth.models import User

    User.objects.filter(username__in=["grace", "twin1", "twin2", "root"]).delete()
    User.objects.create_user("grace", "Grace@Example.com", {PASSWORD!r})
    User.objects.create_user("twin1", "twin@example.com", {PASSWORD!r})
    User.objects.create_user("twin2", "TWIN@example.com", {PASSWORD!r})
    root = User.objects.create_superuser("root", "root@example.com", {PASSWORD!r})
    print(root.pk)
"""


@pytest.fixture(scope="module")
def root_id(new_project) -> int:
    result = new_project.script(ACCOUNTS)
    assert result.returncode == 0, result.stderr
    return int(result.stdout.splitlines()[-1])


class Rest:
    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=10)
        self.token: str | None = None

    def call(self, method: str, path: str, *args: Any) -> tuple[int, Any]:
        verbs = {"find": "GET", "get": "GET", "create": "POST", "patch": "PATCH"}
        url = f"/{path}/{args[0]}" if method in ("get", "patch") else f"/{path}"
        body = args[-1] if method in ("create", "patch") else None
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        response = self.http.request(verbs[method], url, json=body, headers=headers)
        return response.status_code, response.json()

    def login(self, body: dict) -> tuple[int, Any]:
        status, answer = self.call("create", "authentication", body)
        if status == 201:
            self.token = answer["accessToken"]
        return status, answer

    def close(self) -> None:
        self.http.close()


class Socket:
    """Over one socket.io connection; a login logs the connection in."""

    def __init__(self, url: str) -> None:
        self.sio = socketio.Client(reconnection=False)
        self.sio.connect(url, transports=["websocket"])

    def call(self, method: str, path: str, *args: Any) -> tuple[int, Any]:
        arguments = (path, *args) if method == "find" else (path, *args, {})
        answer = self.sio.call(method, arguments, timeout=10)
        answer = answer if isinstance(answer, tuple) else (answer,)
        if answer[0] is not None:
            return answer[0]["code"], answer[0]
        return (201 if method == "create" else 200), answer[1]

    def login(self, body: dict) -> tuple[int, Any]:
        return self.call("create", "authentication", body)

    def close(self) -> None:
        self.sio.disconnect()


@pytest.fixture(params=["rest", "socketio"])
def api(request, new_project_server, root_id) -> Iterator[Rest | Socket]:
    caller = (Rest if request.param == "rest" else Socket)(new_project_server.url)
    yield caller
    caller.close()


def local(**fields: str) -> dict[str, str]:
    return {"strategy": "local", **fields}


def test_a_feathers_email_body_logs_in_a_user_of_djangos_user(api):
    status, body = api.login(local(email="GRACE@Example.COM", password=PASSWORD))

    assert status == 201, body
    assert body["user"]["username"] == "grace"
    assert body["user"]["email"] == "Grace@example.com"  # normalize_email: the domain lowered
    assert api.login(local(username="grace", password=PASSWORD))[0] == 201


@pytest.mark.parametrize(
    "body",
    [
        local(email="twin@example.com", password=PASSWORD),
        local(email="nobody@example.com", password=PASSWORD),
        local(email="grace@example.com", password="not it"),
        local(email="grace@example.com"),
        local(email=["grace@example.com"], password=PASSWORD),  # type: ignore[arg-type]
    ],
    ids=["shared-email", "unknown-email", "wrong-password", "no-password", "not-a-string"],
)
def test_an_email_two_accounts_share_is_refused_as_a_wrong_password(api, body):
    status, answer = api.login(body)

    assert (status, answer["name"], answer["message"]) == (401, "NotAuthenticated", "Invalid login")


def test_the_users_service_keeps_each_account_to_its_owner(api, root_id):
    assert api.call("find", "users")[0] == 401
    assert api.call("get", "users", root_id)[0] == 401
    signup = {"username": f"mallory-{type(api).__name__}", "password": "mallory's password"}
    status, created = api.call("create", "users", signup)
    assert status == 201, created
    assert api.login(local(**signup))[0] == 201

    status, found = api.call("find", "users")
    assert status == 200 and [user["id"] for user in found] == [created["id"]], found
    takeover = {"password": "owned by mallory", "oldPassword": signup["password"]}
    status, answer = api.call("patch", "users", root_id, takeover)
    assert (status, answer["name"]) == (404, "NotFound"), answer
    assert api.login(local(username="root", password="owned by mallory"))[0] == 401


HASHER = """
from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    algorithm = "counting"
    calls = 0

    def encode(self, password, salt):
        type(self).calls += 1
        return super().encode(password, salt)
"""

COUNT = f"""
    import json
    from django.contrib.auth.models import User
    from shop.hashers import CountingHasher
    from django_services.server.authentication import LocalStrategy, NotAuthenticated

    User.objects.filter(username__startswith="count-").delete()
    User.objects.create_user("count-ann", "ann@count.example", {PASSWORD!r})
    User.objects.create_user("count-twin1", "twin@count.example", {PASSWORD!r})
    User.objects.create_user("count-twin2", "Twin@count.example", {PASSWORD!r})
    counts = {{}}
    for name, email, password in [
        ("right", "ANN@count.example", {PASSWORD!r}),
        ("wrong-password", "ann@count.example", "not it"),
        ("unknown-email", "nobody@count.example", {PASSWORD!r}),
        ("shared-email", "twin@count.example", {PASSWORD!r}),
    ]:
        CountingHasher.calls = 0
        body = {{"strategy": "local", "email": email, "password": password}}
        try:
            LocalStrategy("local").authenticate(body, None)
        except NotAuthenticated:
            pass
        counts[name] = CountingHasher.calls
    print(json.dumps(counts))
"""


def test_every_email_login_hashes_the_password_once(new_project):
    (new_project.root / "shop" / "hashers.py").write_text(HASHER, encoding="utf-8")
    settings = new_project.settings(
        "counting_hasher", 'PASSWORD_HASHERS = ["shop.hashers.CountingHasher"]'
    )
    result = new_project.script(COUNT, settings=settings)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == {
        "right": 1,
        "wrong-password": 1,
        "unknown-email": 1,
        "shared-email": 1,
    }

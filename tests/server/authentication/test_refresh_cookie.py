"""
Refresh tokens in a cookie, on a real server: the body never holds them, the cookie is scoped
and guarded, and a refresh from the cookie passes Django's CSRF check. Then the table's upkeep.
"""

from __future__ import annotations

import io
import time
from http.cookies import SimpleCookie

import httpx
import pytest
from django.core.management import call_command

from tests.server.socketio.conftest import SERVICES, LiveSocketServer

from .conftest import EMAIL, PASSWORD, SECRET

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
CSRF = "abcdefghijklmnopqrstuvwxyzABCDEF"
COOKIE_MODE = {
    "SECRET": SECRET,
    "AUTH_STRATEGIES": ["local", "jwt", "refresh"],
    "REFRESH": {"COOKIE": True},
}


@pytest.fixture
def http(settings, transactional_db):
    settings.ROOT_URLCONF = "tests.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": COOKIE_MODE}
    live = LiveSocketServer()
    live.start()
    with httpx.Client(base_url=live.url, timeout=10) as client:
        yield client
    live.stop()


@pytest.fixture
def user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)


def refresh_cookie(response: httpx.Response) -> SimpleCookie:
    cookie = SimpleCookie()
    for header in response.headers.get_list("set-cookie"):
        cookie.load(header)
    return cookie


def send_refresh(http: httpx.Client, token: str, *, csrf: bool = True) -> httpx.Response:
    cookies = f"feathers-refresh={token}; csrftoken={CSRF}"
    headers = {"Cookie": cookies, **({"X-CSRFToken": CSRF} if csrf else {})}
    return http.post("/authentication", json={"strategy": "refresh"}, headers=headers)


def test_a_login_sets_a_guarded_cookie_and_answers_no_refresh_token(http, user):
    response = http.post("/authentication", json=LOCAL)
    assert response.status_code == 201
    assert "refreshToken" not in response.json()
    morsel = refresh_cookie(response)["feathers-refresh"]
    assert morsel.value.count(".") == 2
    assert morsel["httponly"] and morsel["secure"]
    assert (morsel["samesite"], morsel["path"]) == ("Strict", "/authentication")
    assert int(morsel["max-age"]) == 14 * 86400


def test_a_refresh_from_the_cookie_rotates_it(http, user):
    first = refresh_cookie(http.post("/authentication", json=LOCAL))["feathers-refresh"].value
    response = send_refresh(http, first)
    assert response.status_code == 201, response.json()
    assert set(response.json()) == {"accessToken", "authentication", "user"}
    second = refresh_cookie(response)["feathers-refresh"].value
    assert second not in (first, "")
    # The first cookie is spent: presenting it again ends the login.
    assert send_refresh(http, first).status_code == 401
    assert send_refresh(http, second).status_code == 401


def test_a_refresh_from_the_cookie_without_the_csrf_token_is_forbidden(http, user):
    token = refresh_cookie(http.post("/authentication", json=LOCAL))["feathers-refresh"].value
    response = send_refresh(http, token, csrf=False)
    assert (response.status_code, response.json()["name"]) == (403, "Forbidden")
    assert response.json()["message"].startswith("CSRF Failed")
    # The refused request spent nothing.
    assert send_refresh(http, token).status_code == 201


def test_logout_deletes_the_cookie_and_ends_the_login(http, user):
    login = http.post("/authentication", json=LOCAL)
    token = refresh_cookie(login)["feathers-refresh"].value
    bearer = {"Authorization": f"Bearer {login.json()['accessToken']}"}
    logout = http.delete("/authentication", headers=bearer)
    assert logout.status_code == 200
    morsel = refresh_cookie(logout)["feathers-refresh"]
    assert (morsel.value, morsel["max-age"], morsel["path"]) == ("", "0", "/authentication")
    assert send_refresh(http, token).status_code == 401


def test_clear_refresh_tokens_deletes_only_the_expired_ones(user):
    from django_services.models import RefreshToken
    from django_services.server.authentication.refresh import issue_refresh_token

    issue_refresh_token(user, now=time.time() - 15 * 86400)
    issue_refresh_token(user, now=time.time() - 15 * 86400)
    issue_refresh_token(user)
    out = io.StringIO()
    call_command("clear_refresh_tokens", stdout=out)
    assert out.getvalue() == "Deleted 2 expired refresh tokens.\n"
    assert RefreshToken.objects.count() == 1


def test_the_migrations_match_the_model(settings):
    settings.MIGRATION_MODULES = {}  # the suite creates its tables without migrations
    out = io.StringIO()
    call_command("makemigrations", "django_services", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


async def test_a_socket_login_in_cookie_mode_gets_no_refresh_token(settings, transactional_db):
    import socketio
    from asgiref.sync import sync_to_async

    from tests.testapp.models import User

    await sync_to_async(User.objects.create_user)(email=EMAIL, password=PASSWORD)
    settings.ROOT_URLCONF = "tests.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": COOKIE_MODE}
    live = LiveSocketServer()
    live.start()
    client = socketio.AsyncClient(reconnection=False)
    try:
        await client.connect(live.url, transports=["websocket"])
        answer = await client.call("create", ("authentication", LOCAL, {}), timeout=10)
        assert answer[0] is None
        assert set(answer[1]) == {"accessToken", "authentication", "user"}
        assert "sid" not in answer[1]["authentication"]["payload"]
        # A token from a REST login's cookie, refreshed over the socket: the heir is answered
        # in the body, the only way back over a socket.
        async with httpx.AsyncClient(base_url=live.url) as http:
            login = await http.post("/authentication", json=LOCAL)
        token = refresh_cookie(login)["feathers-refresh"].value
        data = {"strategy": "refresh", "refreshToken": token}
        answer = await client.call("create", ("authentication", data, {}), timeout=10)
        assert answer[0] is None
        assert answer[1]["refreshToken"].count(".") == 2
    finally:
        await client.shutdown()
        live.stop()

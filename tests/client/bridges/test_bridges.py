"""
Every credential bridge against the project's own server over real HTTP (live_server), with
each of the four connection kinds: what the remote receives is what the bridge promises.
"""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from django_services.client.remotes import BoundRemote, remotes
from django_services.errors import Forbidden, NotAuthenticated
from tests.remotes.fixtures import EMAIL, SERVICE_EMAIL
from tests.remotes.services import LOGINS

pytestmark = pytest.mark.usefixtures("live_remotes")

CSRF_SECRET = "A" * 16 + "b" * 16


def session_key(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def test_a_remote_without_auth_sends_no_credentials(harness):
    received = harness.call(lambda: remotes["plain"].service("echo").find())

    assert received["authorization"] is None
    assert received["cookies"] == []


def test_forward_bearer_sends_the_callers_token(harness, person_token):
    request = RequestFactory().get("/", headers={"Authorization": f"Bearer {person_token}"})

    answer = harness.call(lambda: remotes["bearer"].for_request(request).service("caller").find())

    assert answer["email"] == EMAIL
    assert answer["strategy"] == "jwt"
    assert answer["authorization"] == f"Bearer {person_token}"
    assert answer["cookies"] == []


def test_forward_bearer_reads_the_scheme_in_any_case(harness, person_token):
    request = RequestFactory().get("/", headers={"Authorization": f"bearer {person_token}"})

    answer = harness.call(lambda: remotes["bearer"].for_request(request).service("caller").find())

    assert answer["authorization"] == f"Bearer {person_token}"


@pytest.mark.parametrize("header", [None, "Basic YWRhOnNlY3JldA==", "Bearer", "Token abc"])
def test_forward_bearer_forwards_nothing_but_a_bearer_token(harness, users, header):
    headers = {"Authorization": header} if header else {}
    request = RequestFactory().get("/", headers=headers)
    remote = remotes["bearer"].for_request(request)

    received = harness.call(lambda: remote.service("echo").find())
    with pytest.raises(NotAuthenticated):
        harness.call(lambda: remote.service("caller").find())

    assert received["authorization"] is None


def test_forward_session_sends_the_session_cookie(harness, users):
    key = session_key(users["person"])
    request = RequestFactory().get("/", headers={"Cookie": f"sessionid={key}"})

    answer = harness.call(lambda: remotes["session"].for_request(request).service("caller").find())

    assert answer["email"] == EMAIL
    assert answer["strategy"] == "session"
    assert answer["cookies"] == ["sessionid"]
    assert answer["csrf_header"] is None
    assert answer["authorization"] is None


def test_forward_session_passes_the_csrf_check_on_unsafe_methods(harness, users):
    key = session_key(users["person"])
    request = RequestFactory().post("/", headers={"Cookie": f"sessionid={key}"})
    remote = remotes["session"].for_request(request)

    created = harness.call(lambda: remote.service("caller").create({"text": "hi"}))
    without_token = {"X-CSRFToken": None}
    with pytest.raises(Forbidden, match="CSRF"):
        harness.call(lambda: remote.service("caller").create({}, headers=without_token))

    assert created["email"] == EMAIL
    assert created["data"] == {"text": "hi"}
    assert created["cookies"] == ["csrftoken", "sessionid"]
    assert len(created["csrf_header"]) == 32
    # Plain HTTP: Django checks neither Origin nor Referer, none is sent.
    assert (created["origin"], created["referer"]) == (None, None)


def test_forward_session_uses_the_request_s_csrf_secret(harness, users):
    key = session_key(users["person"])
    cookie = f"sessionid={key}; csrftoken={CSRF_SECRET}"
    request = RequestFactory().post("/", headers={"Cookie": cookie})

    created = harness.call(
        lambda: remotes["session"].for_request(request).service("caller").create({})
    )

    assert created["csrf_header"] == CSRF_SECRET


def test_forward_session_without_a_session_calls_anonymously(harness, users):
    request = RequestFactory().get("/", headers={"Cookie": f"csrftoken={CSRF_SECRET}"})
    remote = remotes["session"].for_request(request)

    received = harness.call(lambda: remote.service("echo").find())
    with pytest.raises(NotAuthenticated):
        harness.call(lambda: remote.service("caller").find())

    assert received["cookies"] == []


def test_token_strategy_sends_the_token_from_the_environment(harness, static_token):
    answer = harness.call(lambda: remotes["token"].service("caller").find())

    assert answer["email"] == SERVICE_EMAIL
    assert answer["authorization"] == f"Bearer {static_token}"


def test_login_strategy_logs_in_once_and_reuses_the_token(harness, users):
    first = harness.call(lambda: remotes["login"].service("caller").find())
    second = harness.call(lambda: remotes["login"].service("caller").create({"n": 2}))

    assert first["email"] == second["email"] == SERVICE_EMAIL
    assert first["strategy"] == "jwt"
    assert first["authorization"] == second["authorization"]
    assert LOGINS.entries == [{"strategy": "local", "email": SERVICE_EMAIL}]


def test_remotes_without_forwarding_ignore_the_request(harness, users, person_token):
    key = session_key(users["person"])
    request = RequestFactory().post(
        "/", headers={"Authorization": f"Bearer {person_token}", "Cookie": f"sessionid={key}"}
    )

    plain = remotes["plain"].for_request(request)
    login = remotes["login"].for_request(request)
    received = harness.call(lambda: plain.service("echo").create({}))
    as_robot = harness.call(lambda: login.service("caller").find())

    assert plain is remotes["plain"]
    assert login is remotes["login"]
    assert received["authorization"] is None
    assert received["cookies"] == []
    assert as_robot["email"] == SERVICE_EMAIL
    assert as_robot["authorization"] != f"Bearer {person_token}"


def test_each_forwarding_remote_sends_only_its_own_credential(harness, users, person_token):
    key = session_key(users["person"])
    request = RequestFactory().post(
        "/", headers={"Authorization": f"Bearer {person_token}", "Cookie": f"sessionid={key}"}
    )

    by_bearer = harness.call(lambda: remotes["bearer"].for_request(request).service("echo").find())
    by_session = harness.call(
        lambda: remotes["session"].for_request(request).service("echo").find()
    )

    assert isinstance(remotes["bearer"].for_request(request), BoundRemote)
    assert by_bearer["cookies"] == []
    assert by_session["authorization"] is None
    assert by_session["cookies"] == ["sessionid"]


def test_cookies_a_remote_sets_are_never_sent_back(harness):
    remote = remotes["plain"]

    harness.call(lambda: remote.service("echo").create({}))
    received = harness.call(lambda: remote.service("echo").find())

    assert received["cookies"] == []


def test_custom_methods_declared_in_settings(harness, users, configure_remotes):
    configure_remotes(login={"SERVICES": {"caller": {"methods": ["find", "stamp"]}}})

    stamped = harness.call(lambda: remotes["login"].service("caller").stamp({"at": "noon"}))

    assert stamped["email"] == SERVICE_EMAIL
    assert stamped["stamped"] == {"at": "noon"}

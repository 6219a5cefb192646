"""The strategies on their own: local (Django's backends), jwt, session, and a custom one."""

from __future__ import annotations

import pytest
from django.contrib.auth.signals import user_login_failed
from django.test import RequestFactory

from django_services import errors
from django_services.server.authentication import (
    AuthenticationResult,
    BaseStrategy,
    JWTStrategy,
    LocalStrategy,
    NotAuthenticated,
    SessionStrategy,
    create_access_token,
)
from django_services.server.authentication.strategies import allowed_strategy, get_strategy

from .conftest import EMAIL, PASSWORD
from .hashers import CountingMD5PasswordHasher

pytestmark = pytest.mark.django_db

COUNTING_HASHER = "tests.server.authentication.hashers.CountingMD5PasswordHasher"


@pytest.fixture
def request_():
    return RequestFactory().post("/authentication")


def local(data, request=None):
    return LocalStrategy("local").authenticate(data, request)


def test_local_login_returns_the_user(user, request_):
    result = local({"strategy": "local", "email": EMAIL, "password": PASSWORD}, request_)
    assert result.user == user
    assert result.authentication == {"strategy": "local"}


FAILURES = {
    "wrong password": {"email": EMAIL, "password": "wrong"},
    "unknown user": {"email": "nobody@example.com", "password": PASSWORD},
    "missing password": {"email": EMAIL},
    "missing email": {"password": PASSWORD},
    "empty password": {"email": EMAIL, "password": ""},
    "object as email": {"email": {"$ne": None}, "password": PASSWORD},
    "list as password": {"email": EMAIL, "password": [PASSWORD]},
    "number as password": {"email": EMAIL, "password": 12345},
    "NUL in email": {"email": "ada\x00@example.com", "password": PASSWORD},
    # "\ud800" in a JSON body: a valid JavaScript string with no UTF-8 form.
    "lone surrogate in email": {"email": "\ud800" + EMAIL, "password": PASSWORD},
    "lone surrogate in password": {"email": EMAIL, "password": PASSWORD + "\udfff"},
}


@pytest.mark.parametrize("data", FAILURES.values(), ids=FAILURES.keys())
def test_every_local_failure_is_the_same_invalid_login(user, request_, data):
    with pytest.raises(NotAuthenticated) as info:
        local(data, request_)
    assert info.value.to_json() == {
        "name": "NotAuthenticated",
        "message": "Invalid login",
        "code": 401,
        "className": "not-authenticated",
    }


def test_an_inactive_user_cannot_log_in(user, request_):
    user.is_active = False
    user.save()
    with pytest.raises(NotAuthenticated, match=r"^Invalid login$"):
        local({"email": EMAIL, "password": PASSWORD}, request_)


@pytest.mark.parametrize("data", FAILURES.values(), ids=FAILURES.keys())
def test_every_local_failure_costs_one_password_hash(settings, data, request_):
    settings.PASSWORD_HASHERS = [COUNTING_HASHER]
    from tests.testapp.models import User

    User.objects.create_user(email=EMAIL, password=PASSWORD)
    CountingMD5PasswordHasher.calls = 0
    with pytest.raises(NotAuthenticated):
        local(data, request_)
    assert CountingMD5PasswordHasher.calls == 1


def test_a_success_costs_the_same_one_hash(settings, request_):
    settings.PASSWORD_HASHERS = [COUNTING_HASHER]
    from tests.testapp.models import User

    User.objects.create_user(email=EMAIL, password=PASSWORD)
    CountingMD5PasswordHasher.calls = 0
    local({"email": EMAIL, "password": PASSWORD}, request_)
    assert CountingMD5PasswordHasher.calls == 1


def test_failures_reach_djangos_login_failed_signal(user, request_):
    seen = []

    def receiver(sender, credentials, request, **kwargs):
        seen.append((credentials, request))

    user_login_failed.connect(receiver)
    try:
        with pytest.raises(NotAuthenticated):
            local({"email": EMAIL, "password": "wrong"}, request_)
    finally:
        user_login_failed.disconnect(receiver)
    assert seen == [({"username": EMAIL, "password": "********************"}, request_)]


def test_local_field_names_and_message_are_configurable(configure, user, request_):
    configure(LOCAL={"USERNAME_FIELD": "login", "PASSWORD_FIELD": "secret", "ERROR_MESSAGE": "No"})
    assert local({"login": EMAIL, "secret": PASSWORD}, request_).user == user
    with pytest.raises(NotAuthenticated, match=r"^No$"):
        local({"email": EMAIL, "password": PASSWORD}, request_)


def test_local_uses_the_projects_authentication_backends(settings, user, request_):
    settings.AUTHENTICATION_BACKENDS = ["tests.server.authentication.backends.NobodyBackend"]
    with pytest.raises(NotAuthenticated, match=r"^Invalid login$"):
        local({"email": EMAIL, "password": PASSWORD}, request_)


def test_jwt_returns_the_same_token_with_its_claims(user):
    token = create_access_token(str(user.pk))
    result = JWTStrategy("jwt").authenticate({"accessToken": token}, None)
    assert result.user == user
    assert list(result.authentication) == ["strategy", "accessToken", "payload"]
    assert result.authentication["accessToken"] == token
    assert result.authentication["payload"]["sub"] == str(user.pk)


def test_jwt_without_a_token(db):
    with pytest.raises(NotAuthenticated, match=r"^No access token$"):
        JWTStrategy("jwt").authenticate({"strategy": "jwt"}, None)


def test_jwt_whose_user_is_gone(user):
    token = create_access_token(str(user.pk))
    user.delete()
    with pytest.raises(NotAuthenticated) as info:
        JWTStrategy("jwt").authenticate({"accessToken": token}, None)
    assert info.value.code == 401


@pytest.mark.parametrize("subject", ["999999", "not-a-number", "1" * 40])
def test_jwt_whose_subject_names_no_user(user, subject):
    token = create_access_token(subject)
    with pytest.raises(NotAuthenticated):
        JWTStrategy("jwt").authenticate({"accessToken": token}, None)


def test_session_strategy_needs_a_logged_in_session(client, user):
    request = RequestFactory().post("/authentication")
    from django.contrib.sessions.backends.db import SessionStore

    request.session = SessionStore()
    with pytest.raises(NotAuthenticated, match=r"^No logged-in session$"):
        SessionStrategy("session").authenticate({}, request)
    with pytest.raises(NotAuthenticated):
        SessionStrategy("session").authenticate({}, None)


def test_session_strategy_reads_the_session_without_the_middleware(client, user):
    client.force_login(user)
    request = RequestFactory().post("/authentication")
    request._dont_enforce_csrf_checks = True
    from django.contrib.sessions.backends.db import SessionStore

    request.session = SessionStore(client.session.session_key)
    assert SessionStrategy("session").authenticate({}, request).user == user


def test_session_strategy_enforces_csrf(client, user):
    client.force_login(user)
    request = RequestFactory().post("/authentication")
    from django.contrib.sessions.backends.db import SessionStore

    request.session = SessionStore(client.session.session_key)
    with pytest.raises(errors.Forbidden, match=r"^CSRF Failed: "):
        SessionStrategy("session").authenticate({}, request)


class APIKeyStrategy(BaseStrategy):
    """A strategy a project adds: a fixed key for one service account."""

    def authenticate(self, data, request):
        from tests.testapp.models import User

        if data.get("apiKey") != "k-123":
            raise NotAuthenticated("Invalid API key")
        return AuthenticationResult(
            User.objects.get(email=EMAIL), {"strategy": self.name, "scope": "robots"}
        )


def test_a_project_adds_its_own_strategy(configure, user):
    configure(
        STRATEGIES={"apiKey": "tests.server.authentication.test_strategies.APIKeyStrategy"},
        AUTH_STRATEGIES=["local", "apiKey"],
    )
    strategy = allowed_strategy("apiKey")
    assert isinstance(strategy, APIKeyStrategy)
    assert strategy.authenticate({"apiKey": "k-123"}, None).user == user
    assert isinstance(get_strategy("jwt"), JWTStrategy), "the built-in strategies are kept"


def test_strategies_must_be_allowed(configure, db):
    with pytest.raises(NotAuthenticated) as info:
        allowed_strategy("session")
    assert info.value.message == (
        "Invalid authentication information (strategy not allowed in authStrategies)"
    )
    for name in ["nope", ["local"], {"a": 1}, 3]:
        with pytest.raises(NotAuthenticated, match="strategy not allowed"):
            allowed_strategy(name)
    for name in [None, ""]:
        with pytest.raises(NotAuthenticated) as info:
            allowed_strategy(name)
        assert info.value.message == "Invalid authentication information (no `strategy` set)"

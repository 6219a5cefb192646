"""
A password change ends every token issued before it, over real HTTP: tokens carry a fingerprint
of the user's password hash (`REVOKE_ON_PASSWORD_CHANGE`, on by default).
"""

from __future__ import annotations

import time

import jwt
import pytest
import requests
from django.core.checks import run_checks

from .conftest import EMAIL, PASSWORD, SECRET

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "a brand new and much longer passphrase"
REVOKED = {
    "name": "NotAuthenticated",
    "message": "jwt revoked by a password change",
    "code": 401,
    "className": "not-authenticated",
    "data": {"name": "JsonWebTokenError"},
}


@pytest.fixture
def call(live_server, settings):
    """`call(method, path, json=..., token=...)`: one request to the live server."""
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SERVICES": {
            **settings.DJANGO_SERVICES["SERVICES"],
            "users": "django_services.server.authentication.users.UserService",
        },
    }

    with requests.Session() as session:

        def send(method, path, token=None, **kwargs):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            return session.request(
                method, live_server.url + path, headers=headers, timeout=10, **kwargs
            )

        yield send


def login(call, password=PASSWORD):
    response = call(
        "POST", "/authentication", json={"strategy": "local", "email": EMAIL, "password": password}
    )
    assert response.status_code == 201, response.text
    return response.json()["accessToken"]


def whoami(call, token):
    return call("GET", "/whoami", token=token)


def reauthenticate(call, token):
    return call("POST", "/authentication", json={"strategy": "jwt", "accessToken": token})


def assert_revoked(response):
    assert response.status_code == 401, response.text
    assert response.json() == REVOKED


def test_a_password_change_through_the_users_service_ends_earlier_tokens(call, user):
    first, second = login(call), login(call)
    assert whoami(call, first).status_code == 200

    body = {"password": NEW_PASSWORD, "oldPassword": PASSWORD}
    changed = call("PATCH", f"/users/{user.pk}", token=first, json=body)
    assert changed.status_code == 200, changed.text

    for token in (first, second):
        assert_revoked(whoami(call, token))
        assert_revoked(reauthenticate(call, token))
    fresh = login(call, NEW_PASSWORD)
    assert whoami(call, fresh).json()["email"] == EMAIL
    assert reauthenticate(call, fresh).json()["accessToken"] == fresh


def test_a_password_set_in_django_ends_earlier_tokens(call, user):
    token = login(call)
    user.set_password(NEW_PASSWORD)
    user.save()
    assert_revoked(whoami(call, token))


def test_an_unusable_password_ends_earlier_tokens(call, user):
    token = login(call)
    user.set_unusable_password()
    user.save()
    assert_revoked(whoami(call, token))


def test_saving_the_user_without_a_new_password_keeps_tokens(call, user):
    token = login(call)
    user.first_name = "Ada"
    user.save()
    assert whoami(call, token).status_code == 200


def test_a_token_without_the_fingerprint_is_refused(call, user):
    now = int(time.time())
    claims = {
        "iat": now,
        "exp": now + 60,
        "aud": "https://yourdomain.com",
        "iss": "feathers",
        "sub": str(user.pk),
        "jti": "issued-before-the-setting",
    }
    token = jwt.encode(claims, SECRET, headers={"typ": "access"})
    assert_revoked(whoami(call, token))
    forged = jwt.encode({**claims, "auth_hash": "0" * 64}, SECRET, headers={"typ": "access"})
    assert_revoked(whoami(call, forged))


def test_the_fingerprint_reveals_nothing_of_the_hash(call, user):
    claims = jwt.decode(login(call), options={"verify_signature": False})
    assert len(claims["auth_hash"]) == 64
    assert claims["auth_hash"] not in user.password
    assert user.password.split("$")[-1] not in claims["auth_hash"]


def test_rotating_the_secret_ends_no_token(call, user, configure):
    token = login(call)
    configure(SECRET="a-new-secret-after-rotation-long-enough-for-hs256", SECRET_FALLBACKS=[SECRET])
    assert whoami(call, token).status_code == 200
    old_claims = jwt.decode(token, options={"verify_signature": False})
    new_claims = jwt.decode(login(call), options={"verify_signature": False})
    assert new_claims["auth_hash"] != old_claims["auth_hash"]


def test_turned_off_tokens_outlive_a_password_change(call, user, configure):
    configure(REVOKE_ON_PASSWORD_CHANGE=False)
    token = login(call)
    assert "auth_hash" not in jwt.decode(token, options={"verify_signature": False})
    user.set_password(NEW_PASSWORD)
    user.save()
    assert whoami(call, token).json()["email"] == EMAIL


def test_a_token_created_in_code_carries_the_fingerprint(call, user):
    from django_services.server.authentication import create_access_token

    token = create_access_token(str(user.pk))
    assert whoami(call, token).status_code == 200
    user.set_password(NEW_PASSWORD)
    user.save()
    assert_revoked(whoami(call, token))


@pytest.mark.parametrize("value", [None, "yes", 1])
def test_the_setting_must_be_a_boolean(configure, value):
    configure(REVOKE_ON_PASSWORD_CHANGE=value)
    errors = [message for message in run_checks() if message.id == "django_services.E107"]
    assert len(errors) == 1
    assert "REVOKE_ON_PASSWORD_CHANGE" in errors[0].msg

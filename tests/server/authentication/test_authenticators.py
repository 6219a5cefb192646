"""The DRF authentication classes on a service and a plain DRF view: headers, sessions, CSRF."""

from __future__ import annotations

import time

import jwt
import pytest
from rest_framework.test import APIClient

from django_services.server.authentication import create_access_token

from .conftest import SECRET

pytestmark = [pytest.mark.urls("tests.server.authentication.urls"), pytest.mark.django_db]

CSRF_SECRET = "k" * 32
AUDIENCE = "https://yourdomain.com"


@pytest.fixture
def client():
    return APIClient(enforce_csrf_checks=True)


@pytest.fixture
def token(user):
    return create_access_token(str(user.pk))


@pytest.mark.parametrize("template", ["Bearer {}", "JWT {}", "bearer {}", "jwt  {}", "{}"])
def test_token_in_every_accepted_form(client, token, user, template):
    response = client.get("/whoami", HTTP_AUTHORIZATION=template.format(token))
    assert response.status_code == 200, response.content
    assert response.json()["email"] == user.email
    authentication = response.json()["authentication"]
    assert list(authentication) == ["strategy", "accessToken", "payload"]
    assert authentication["strategy"] == "jwt"
    assert authentication["accessToken"] == token
    assert authentication["payload"]["sub"] == str(user.pk)


def test_no_credentials_is_401_with_a_challenge(client):
    response = client.get("/whoami")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert response.json()["name"] == "NotAuthenticated"


def test_the_classes_work_on_plain_drf_views(client, token, user):
    response = client.get("/drf-whoami", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    assert response.json()["authentication"]["accessToken"] == token
    response = client.get("/drf-whoami", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert response.json() == {"detail": "jwt malformed"}
    client.force_login(user)
    assert client.post("/drf-whoami", {}, format="json").status_code == 403, "CSRF"


def test_another_scheme_is_ignored(client, token):
    response = client.get("/whoami", HTTP_AUTHORIZATION=f"Basic {token}")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.parametrize("value", ["Bearer", "JWT", "Bearer a b"])
def test_an_accepted_scheme_without_one_token_is_401(client, value):
    response = client.get("/whoami", HTTP_AUTHORIZATION=value)
    assert response.status_code == 401
    assert response.has_header("WWW-Authenticate")


def test_an_invalid_token_is_401_not_anonymous(client, user):
    expired = jwt.encode(
        {"iat": 1, "exp": 2, "aud": AUDIENCE, "iss": "feathers", "sub": str(user.pk)},
        SECRET,
        headers={"typ": "access"},
    )
    response = client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {expired}")
    assert response.status_code == 401
    assert response.json()["message"] == "jwt expired"
    assert response.json()["data"]["name"] == "TokenExpiredError"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_the_header_and_schemes_are_configurable(configure, client, token):
    configure(JWT={"HEADER": "X-Access-Token", "SCHEMES": ["Token"]})
    assert client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401
    assert client.get("/whoami", HTTP_X_ACCESS_TOKEN=f"Bearer {token}").status_code == 401
    assert client.get("/whoami", HTTP_X_ACCESS_TOKEN=f"token {token}").status_code == 200


def test_a_token_whose_user_is_gone_is_401(client, token, user):
    user.delete()
    assert client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_a_token_whose_user_was_deactivated_is_401(client, token, user):
    user.is_active = False
    user.save()
    assert client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_entity_id_names_the_field_carried_as_sub(configure, client, user):
    configure(ENTITY_ID="email")
    token = create_access_token(user.email)
    response = client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    assert response.json()["authentication"]["payload"]["sub"] == user.email


def test_a_session_authenticates_safe_requests(client, user):
    client.force_login(user)
    response = client.get("/whoami")
    assert response.status_code == 200
    assert response.json() == {"email": user.email, "authentication": {"strategy": "session"}}


def test_a_session_needs_csrf_on_unsafe_requests(client, user):
    client.force_login(user)
    response = client.post("/whoami", {}, format="json")
    assert response.status_code == 403
    assert response.json()["name"] == "Forbidden"
    assert response.json()["message"].startswith("CSRF Failed: ")

    client.cookies["csrftoken"] = CSRF_SECRET
    response = client.post("/whoami", {}, format="json", HTTP_X_CSRFTOKEN=CSRF_SECRET)
    assert response.status_code == 201
    assert response.json()["authentication"] == {"strategy": "session"}


def test_a_token_needs_no_csrf(client, token):
    response = client.post("/whoami", {}, format="json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 201


def test_session_only_views_still_answer_401_not_403(client):
    response = client.get("/session-only")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Session realm="api"'


def test_a_revoked_user_session_is_anonymous(client, user):
    client.force_login(user)
    user.is_active = False
    user.save()
    assert client.get("/whoami").status_code == 401


def test_token_checks_are_strict_about_time(client, user):
    now = int(time.time())
    future = jwt.encode(
        {
            "iat": now + 600,
            "exp": now + 900,
            "aud": AUDIENCE,
            "iss": "feathers",
            "sub": str(user.pk),
        },
        SECRET,
        headers={"typ": "access"},
    )
    response = client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {future}")
    assert response.status_code == 401
    assert response.json()["message"] == "jwt not active"

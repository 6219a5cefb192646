"""The `authentication` service over HTTP: shapes, failures, logout, sessions."""

from __future__ import annotations

import base64
import json
import time

import jwt
import pytest
from rest_framework.test import APIClient

from django_services.server.authentication import AuthenticationService
from django_services.server.pipeline.params import Params

from .conftest import EMAIL, PASSWORD, SECRET
from .hashers import CountingMD5PasswordHasher

pytestmark = [pytest.mark.urls("tests.server.authentication.urls"), pytest.mark.django_db]

AUDIENCE = "https://yourdomain.com"
INVALID_LOGIN = {
    "name": "NotAuthenticated",
    "message": "Invalid login",
    "code": 401,
    "className": "not-authenticated",
}


@pytest.fixture
def client():
    return APIClient(enforce_csrf_checks=True)


def login(client, **data):
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD, **data}
    return client.post("/authentication", body, format="json")


def claims_of(token: str) -> dict:
    return jwt.decode(token, SECRET, algorithms=["HS256"], audience=AUDIENCE)


def b64(value: dict) -> str:
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_local_login_is_201_with_feathers_shape(client, user):
    before = int(time.time())
    response = login(client)
    assert response.status_code == 201, response.content
    body = response.json()
    assert list(body) == ["accessToken", "authentication", "user"]
    token = body["accessToken"]
    assert jwt.get_unverified_header(token) == {"alg": "HS256", "typ": "access"}
    payload = claims_of(token)
    assert body["authentication"] == {"strategy": "local", "payload": payload}
    assert list(body["authentication"]) == ["strategy", "payload"]
    assert list(payload) == ["iat", "exp", "aud", "iss", "sub", "jti", "auth_hash"]
    assert before <= payload["iat"] <= time.time()
    assert payload["exp"] == payload["iat"] + 86400
    assert payload["aud"] == AUDIENCE
    assert payload["iss"] == "feathers"
    assert payload["sub"] == str(user.pk)
    assert body["user"] == {"id": user.pk, "email": EMAIL}
    assert "password" not in response.content.decode()
    assert user.password not in response.content.decode()


def test_the_token_authenticates_service_requests(client, user):
    token = login(client).json()["accessToken"]
    response = client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    assert response.json()["email"] == EMAIL


def test_jwt_reauthentication_returns_the_same_token(client, user):
    token = login(client).json()["accessToken"]
    response = client.post(
        "/authentication", {"strategy": "jwt", "accessToken": token}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert list(body) == ["accessToken", "authentication", "user"]
    assert body["accessToken"] == token
    assert body["authentication"] == {
        "strategy": "jwt",
        "accessToken": token,
        "payload": claims_of(token),
    }
    assert body["user"] == {"id": user.pk, "email": EMAIL}


def test_wrong_password_and_unknown_user_are_indistinguishable(client, settings):
    settings.PASSWORD_HASHERS = ["tests.server.authentication.hashers.CountingMD5PasswordHasher"]
    from tests.testapp.models import User

    User.objects.create_user(email=EMAIL, password=PASSWORD)
    answers = []
    for data in [
        {"password": "wrong"},
        {"email": "nobody@example.com"},
        {"email": None},
        {"password": {"$ne": None}},
        {"email": ["a", "b"]},
    ]:
        CountingMD5PasswordHasher.calls = 0
        response = login(client, **data)
        answers.append(
            (
                response.status_code,
                response.json(),
                response["WWW-Authenticate"],
                CountingMD5PasswordHasher.calls,
            )
        )
    assert answers == [(401, INVALID_LOGIN, 'Bearer realm="api"', 1)] * 5


def test_no_strategy(client, db):
    response = client.post("/authentication", {"email": EMAIL}, format="json")
    assert response.status_code == 401
    assert response.json() == {
        "name": "NotAuthenticated",
        "message": "Invalid authentication information (no `strategy` set)",
        "code": 401,
        "className": "not-authenticated",
    }


@pytest.mark.parametrize("strategy", ["oauth", "session", "LOCAL", ["local"]])
def test_unknown_or_not_allowed_strategy(client, db, strategy):
    response = client.post("/authentication", {"strategy": strategy}, format="json")
    assert response.status_code == 401
    assert response.json()["message"] == (
        "Invalid authentication information (strategy not allowed in authStrategies)"
    )


def test_jwt_strategy_without_a_token(client, db):
    response = client.post("/authentication", {"strategy": "jwt"}, format="json")
    assert response.status_code == 401
    assert response.json()["message"] == "No access token"


def expired_token(user):
    now = int(time.time())
    claims = {"iat": now - 100, "exp": now - 50, "aud": AUDIENCE, "iss": "feathers"}
    return jwt.encode({**claims, "sub": str(user.pk)}, SECRET, headers={"typ": "access"})


def tampered_token(user):
    header, payload, signature = jwt.encode(
        {"iat": int(time.time()), "exp": int(time.time()) + 60, "aud": AUDIENCE},
        SECRET,
        headers={"typ": "access"},
    ).split(".")
    forged = {**json.loads(base64.urlsafe_b64decode(payload + "==")), "sub": str(user.pk)}
    return f"{header}.{b64(forged)}.{signature}"


def none_token(user):
    now = int(time.time())
    claims = {"iat": now, "exp": now + 60, "aud": AUDIENCE, "iss": "feathers"}
    return f"{b64({'alg': 'none', 'typ': 'access'})}.{b64({**claims, 'sub': str(user.pk)})}."


def wrong_key_token(user):
    now = int(time.time())
    claims = {"iat": now, "exp": now + 60, "aud": AUDIENCE, "iss": "feathers"}
    key = "someone-elses-secret-that-is-long-enough-for-hs256-x"
    return jwt.encode({**claims, "sub": str(user.pk)}, key, headers={"typ": "access"})


def wrong_audience_token(user):
    now = int(time.time())
    claims = {"iat": now, "exp": now + 60, "aud": "https://other.example", "iss": "feathers"}
    return jwt.encode({**claims, "sub": str(user.pk)}, SECRET, headers={"typ": "access"})


@pytest.mark.parametrize(
    ("make", "message", "name"),
    [
        (expired_token, "jwt expired", "TokenExpiredError"),
        (tampered_token, "invalid signature", "JsonWebTokenError"),
        (none_token, "invalid algorithm", "JsonWebTokenError"),
        (wrong_key_token, "invalid signature", "JsonWebTokenError"),
        (wrong_audience_token, f"jwt audience invalid. expected: {AUDIENCE}", "JsonWebTokenError"),
    ],
)
def test_bad_tokens_are_refused_everywhere(client, user, make, message, name):
    token = make(user)
    for response in [
        client.post("/authentication", {"strategy": "jwt", "accessToken": token}, format="json"),
        client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}"),
        client.delete("/authentication", HTTP_AUTHORIZATION=f"Bearer {token}"),
    ]:
        assert response.status_code == 401
        body = response.json()
        assert body["name"] == "NotAuthenticated", body
        assert body["message"] == message
        assert body["data"]["name"] == name
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_expired_token_tells_when(client, user):
    token = expired_token(user)
    body = client.post(
        "/authentication", {"strategy": "jwt", "accessToken": token}, format="json"
    ).json()
    exp = jwt.decode(token, options={"verify_signature": False})["exp"]
    assert body["data"] == {
        "name": "TokenExpiredError",
        "expiredAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(exp)),
    }


def test_a_token_whose_user_is_gone_is_401(client, user):
    token = login(client).json()["accessToken"]
    user.delete()
    response = client.post(
        "/authentication", {"strategy": "jwt", "accessToken": token}, format="json"
    )
    assert response.status_code == 401
    assert response.json()["message"] == "User not found or inactive"
    assert client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_a_stale_token_in_the_header_does_not_block_a_login(client, user):
    response = client.post(
        "/authentication",
        {"strategy": "local", "email": EMAIL, "password": PASSWORD},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {expired_token(user)}",
    )
    assert response.status_code == 201


def test_an_array_body_is_not_a_login(client, user):
    response = client.post(
        "/authentication",
        [{"strategy": "local", "email": EMAIL, "password": PASSWORD}],
        format="json",
    )
    assert response.status_code == 405
    assert response.json()["message"] == "Can not create multiple entries"


def test_logout_returns_the_jwt_shape(client, user):
    token = login(client).json()["accessToken"]
    response = client.delete("/authentication", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == ["accessToken", "authentication", "user"]
    assert body["accessToken"] == token
    assert body["authentication"] == {
        "strategy": "jwt",
        "accessToken": token,
        "payload": claims_of(token),
    }
    assert body["user"] == {"id": user.pk, "email": EMAIL}
    # Without revocation a token stays valid until it expires, as in Feathers.
    assert client.get("/whoami", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200


def test_logout_with_the_token_as_id(client, user):
    token = login(client).json()["accessToken"]
    header = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert client.delete(f"/authentication/{token}", **header).status_code == 200
    response = client.delete("/authentication/another-token", **header)
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid access token"


def test_logout_without_a_token(client, db):
    for path in ["/authentication", "/authentication/something"]:
        response = client.delete(path)
        assert response.status_code == 401
        assert response.json()["message"] == (
            "Invalid authentication information (no `strategy` set)"
        )


def test_a_logged_out_token_is_refused_with_revocation(configure, client, user):
    configure(REVOCATION_CACHE="default")
    token = login(client).json()["accessToken"]
    header = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert client.delete("/authentication", **header).status_code == 200
    for response in [
        client.get("/whoami", **header),
        client.delete("/authentication", **header),
        client.post("/authentication", {"strategy": "jwt", "accessToken": token}, format="json"),
    ]:
        assert response.status_code == 401
        assert response.json()["message"] == "jwt revoked"
    assert login(client).status_code == 201, "logging in again works"


CSRF_SECRET = "c" * 32


def test_a_django_session_gets_a_token(configure, client, user):
    configure(AUTH_STRATEGIES=["local", "jwt", "session"])
    client.force_login(user)
    client.cookies["csrftoken"] = CSRF_SECRET
    response = client.post(
        "/authentication", {"strategy": "session"}, format="json", HTTP_X_CSRFTOKEN=CSRF_SECRET
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert list(body) == ["accessToken", "authentication", "user"]
    assert body["authentication"] == {
        "strategy": "session",
        "payload": claims_of(body["accessToken"]),
    }
    assert claims_of(body["accessToken"])["sub"] == str(user.pk)
    assert body["user"] == {"id": user.pk, "email": EMAIL}


def test_session_to_token_needs_csrf(configure, client, user):
    configure(AUTH_STRATEGIES=["local", "jwt", "session"])
    client.force_login(user)
    response = client.post("/authentication", {"strategy": "session"}, format="json")
    assert response.status_code == 403
    assert response.json()["name"] == "Forbidden"
    assert response.json()["message"].startswith("CSRF Failed: ")


def test_session_to_token_needs_a_logged_in_session(configure, client, db):
    configure(AUTH_STRATEGIES=["local", "jwt", "session"])
    response = client.post("/authentication", {"strategy": "session"}, format="json")
    assert response.status_code == 401
    assert response.json()["message"] == "No logged-in session"


def test_the_entity_key_is_configurable(configure, client, user):
    configure(ENTITY="account")
    assert list(login(client).json()) == ["accessToken", "authentication", "account"]
    configure(ENTITY=None)
    assert list(login(client).json()) == ["accessToken", "authentication"]


def test_expires_in_and_options_apply_to_issued_tokens(configure, client, user):
    configure(JWT={"EXPIRES_IN": 60, "ISSUER": None, "AUDIENCE": "https://api.example"})
    payload = login(client).json()["authentication"]["payload"]
    assert payload["exp"] - payload["iat"] == 60
    assert "iss" not in payload
    assert payload["aud"] == "https://api.example"


class ClaimsService(AuthenticationService):
    def get_payload(self, result, params):
        return {"role": "staff" if result.user.is_staff else "member"}


def test_subclasses_add_claims_and_can_be_called_in_python(user):
    body = ClaimsService().create(
        {"strategy": "local", "email": EMAIL, "password": PASSWORD}, Params()
    )
    assert list(body["authentication"]["payload"])[:2] == ["role", "iat"]
    assert claims_of(body["accessToken"])["role"] == "member"


def test_the_service_path_and_class_are_configurable(configure, client, user):
    configure(
        SERVICE_PATH="api/auth",
        SERVICE_CLASS="tests.server.authentication.test_service.ClaimsService",
    )
    assert login(client).status_code == 404
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    response = client.post("/api/auth", body, format="json")
    assert response.status_code == 201
    assert claims_of(response.json()["accessToken"])["role"] == "member"


def test_no_service_without_authentication_settings(settings, client, user):
    settings.DJANGO_SERVICES = {}
    response = login(client)
    assert response.status_code == 404
    assert response.json()["message"] == "Page not found"


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/authentication"), ("get", "/authentication/x"), ("patch", "/authentication/x")],
)
def test_only_create_and_remove_are_served(client, db, method, path):
    response = getattr(client, method)(path, {}, format="json")
    assert response.status_code == 405
    assert response.json()["name"] == "MethodNotAllowed"

"""Revocation on logout, shared through Redis by two independent cache clients."""

from __future__ import annotations

import socket
import time
import uuid

import jwt
import pytest
import redis

from django_services.server.authentication import (
    JWTStrategy,
    NotAuthenticated,
    create_access_token,
)
from django_services.server.authentication.config import authentication_settings
from django_services.server.authentication.fingerprint import password_fingerprint
from django_services.server.authentication.revocation import is_revoked, revoke

from .conftest import SECRET

pytestmark = pytest.mark.django_db

REDIS = "redis://127.0.0.1:6379"


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def two_processes(settings, configure):
    """Two cache aliases on one Redis server, as two processes would each have their own."""
    if not redis_answers():
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    prefix = f"django-services-tests-{uuid.uuid4().hex}"
    backend = "django.core.cache.backends.redis.RedisCache"
    settings.CACHES = {
        **settings.CACHES,
        "process_a": {"BACKEND": backend, "LOCATION": REDIS, "KEY_PREFIX": prefix},
        "process_b": {"BACKEND": backend, "LOCATION": REDIS, "KEY_PREFIX": prefix},
    }
    from django.core.cache import caches

    assert caches["process_a"] is not caches["process_b"]

    def become(alias):
        configure(REVOCATION_CACHE=alias)

    become.prefix = prefix
    yield become
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    client.close()


def authenticate(token):
    return JWTStrategy("jwt").authenticate({"accessToken": token}, None)


def test_a_token_revoked_by_one_process_is_refused_by_another(two_processes, user):
    token = create_access_token(str(user.pk))
    two_processes("process_b")
    assert authenticate(token).user == user

    two_processes("process_a")
    revoke(authenticate(token).authentication["payload"])

    two_processes("process_b")
    with pytest.raises(NotAuthenticated) as info:
        authenticate(token)
    assert info.value.message == "jwt revoked"
    assert info.value.data == {"name": "JsonWebTokenError"}

    other = create_access_token(str(user.pk))
    assert authenticate(other).user == user, "only the logged-out token is refused"


def test_the_denylist_entry_lives_until_the_token_expires(two_processes, user):
    two_processes("process_a")
    token = create_access_token(str(user.pk))
    payload = authenticate(token).authentication["payload"]
    leeway = int(authentication_settings()["JWT"]["LEEWAY"])
    revoked_at = int(time.time())
    revoke(payload)
    assert is_revoked(payload)
    key = f"{two_processes.prefix}:1:django_services.authentication.revoked:{payload['jti']}"
    client = redis.Redis.from_url(REDIS)
    ttl = client.ttl(key)
    client.close()
    remaining = payload["exp"] - time.time()
    # Until the token expires (its leeway included), counted in whole seconds from the revocation.
    assert remaining - 5 <= ttl <= payload["exp"] + leeway - revoked_at


def test_with_revocation_on_a_token_needs_a_jti(configure, user):
    now = int(time.time())
    claims = {
        "iat": now,
        "exp": now + 60,
        "aud": "https://yourdomain.com",
        "iss": "feathers",
        "sub": str(user.pk),
        "auth_hash": password_fingerprint(user),
    }
    token = jwt.encode(claims, SECRET, headers={"typ": "access"})
    assert authenticate(token).user == user
    configure(REVOCATION_CACHE="default")
    with pytest.raises(NotAuthenticated, match="jti"):
        authenticate(token)


def test_revocation_is_off_by_default(user):
    token = create_access_token(str(user.pk))
    payload = authenticate(token).authentication["payload"]
    revoke(payload)
    assert not is_revoked(payload)
    assert authenticate(token).user == user


@pytest.mark.urls("tests.server.authentication.urls")
def test_logout_over_http_is_refused_by_the_other_process(two_processes, user):
    from rest_framework.test import APIClient

    from .conftest import EMAIL, PASSWORD

    client = APIClient()
    two_processes("process_a")
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    token = client.post("/authentication", body, format="json").json()["accessToken"]
    header = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert client.get("/whoami", **header).status_code == 200
    assert client.delete("/authentication", **header).status_code == 200

    two_processes("process_b")
    response = client.get("/whoami", **header)
    assert response.status_code == 401
    assert response.json()["message"] == "jwt revoked"

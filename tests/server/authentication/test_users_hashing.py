"""
Passwords are hashed before the write transaction opens: hashing is slow on purpose, and on
SQLite a write transaction holds the whole database while it runs.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.hashers import check_password
from rest_framework.test import APIClient

from django_services.server.authentication import UserService, create_access_token
from tests.testapp.models import User

from .conftest import SECRET, SERVICES
from .hashers import TransactionAwareMD5PasswordHasher

pytestmark = [
    pytest.mark.urls("tests.server.authentication.urls"),
    pytest.mark.django_db(transaction=True),
]


class MultiUserService(UserService):
    multi = True


@pytest.fixture(autouse=True)
def users_service(settings):
    settings.PASSWORD_HASHERS = [
        "tests.server.authentication.hashers.TransactionAwareMD5PasswordHasher"
    ]
    settings.DJANGO_SERVICES = {
        "SERVICES": {
            **SERVICES,
            "users": "tests.server.authentication.test_users_hashing.MultiUserService",
        },
        "AUTHENTICATION": {"SECRET": SECRET},
    }
    TransactionAwareMD5PasswordHasher.in_transaction.clear()


@pytest.fixture
def client():
    return APIClient()


def test_sign_up_hashes_before_the_transaction(client):
    response = client.post(
        "/users", {"email": "ada@example.com", "password": "pw one"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert TransactionAwareMD5PasswordHasher.in_transaction == [False]
    assert check_password("pw one", User.objects.get().password)


def test_a_multi_sign_up_salts_each_password_on_its_own(client):
    users = [{"email": f"{name}@example.com", "password": "same pw"} for name in ("ada", "bob")]
    response = client.post("/users", users, format="json")
    assert response.status_code == 201, response.content
    assert TransactionAwareMD5PasswordHasher.in_transaction == [False, False]
    first, second = (user.password for user in User.objects.order_by("pk"))
    assert first != second
    assert check_password("same pw", first) and check_password("same pw", second)


@pytest.mark.parametrize("method", ["PATCH", "PUT"])
def test_a_new_password_and_its_owners_proof_are_hashed_before_the_transaction(client, method):
    user = User.objects.create_user(email="ada@example.com", password="the old one")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {create_access_token(str(user.pk))}")
    TransactionAwareMD5PasswordHasher.in_transaction.clear()
    data = {"email": "ada@example.com", "password": "a new one", "oldPassword": "the old one"}
    response = client.generic(
        method, f"/users/{user.pk}", data=json.dumps(data), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    # The current password checked, then the new one hashed: both before the transaction.
    assert TransactionAwareMD5PasswordHasher.in_transaction == [False, False]
    assert check_password("a new one", User.objects.get().password)


def test_a_password_the_validators_refuse_is_not_stored(client, settings):
    settings.AUTH_PASSWORD_VALIDATORS = [
        {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"}
    ]
    response = client.post(
        "/users", {"email": "ada@example.com", "password": "short"}, format="json"
    )
    assert response.status_code == 400
    assert "password" in response.json()["errors"]
    assert not User.objects.exists()

"""The users entity service: hashed, private passwords, and the user a login sends."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import check_password
from rest_framework import serializers
from rest_framework.test import APIClient

from django_services.server.authentication import UserService, create_access_token
from tests.testapp.models import User

from .conftest import EMAIL, PASSWORD, SECRET, SERVICES

pytestmark = [pytest.mark.urls("tests.server.authentication.urls"), pytest.mark.django_db]


class ProfileSerializer(serializers.ModelSerializer):
    """A project's serializer that forgot to hide the password."""

    class Meta:
        model = User
        fields = ["id", "email", "is_staff", "password"]


class ProfileService(UserService):
    serializer_class = ProfileSerializer
    multi = ["create"]


@pytest.fixture(autouse=True)
def users_service(settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": {
            **SERVICES,
            "users": "django_services.server.authentication.UserService",
            "profiles": "tests.server.authentication.test_users.ProfileService",
        },
        "AUTHENTICATION": {"SECRET": SECRET},
    }


@pytest.fixture
def client():
    return APIClient()


@pytest.fixture
def signed_in(client, user):
    """The client, with a token of `user`: an account is read and written by its owner."""
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {create_access_token(str(user.pk))}")
    return client


def stored_password(email=EMAIL):
    return User.objects.get(email=email).password


def test_create_hashes_the_password_and_never_sends_it(client):
    response = client.post("/users", {"email": EMAIL, "password": PASSWORD}, format="json")
    assert response.status_code == 201, response.content
    user = User.objects.get(email=EMAIL)
    assert response.json() == {"id": user.pk, "email": EMAIL}
    assert user.password.startswith("md5$")
    assert check_password(PASSWORD, user.password)


def test_a_created_user_can_log_in_and_is_sent_by_the_users_service(client):
    client.post("/users", {"email": EMAIL, "password": PASSWORD}, format="json")
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    response = client.post("/authentication", body, format="json")
    assert response.status_code == 201
    assert response.json()["user"] == {"id": User.objects.get().pk, "email": EMAIL}


def test_the_entity_is_what_the_entity_service_shows(configure, client, user):
    configure(ENTITY_SERVICE="profiles")
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    response = client.post("/authentication", body, format="json")
    assert response.json()["user"] == {"id": user.pk, "email": EMAIL, "is_staff": False}


def test_patch_hashes_a_new_password_and_keeps_it_when_absent(signed_in, user):
    body = {"password": "a new one", "oldPassword": PASSWORD}
    response = signed_in.patch(f"/users/{user.pk}", body, format="json")
    assert response.status_code == 200
    assert response.json() == {"id": user.pk, "email": EMAIL}
    assert check_password("a new one", stored_password())

    before = stored_password()
    signed_in.credentials(
        HTTP_AUTHORIZATION=f"Bearer {create_access_token(str(user.pk), user=User.objects.get())}"
    )
    signed_in.patch(f"/users/{user.pk}", {"email": "ada@lovelace.example"}, format="json")
    assert stored_password("ada@lovelace.example") == before


def test_update_hashes_the_password(signed_in, user):
    body = {"email": EMAIL, "password": " spaces are kept ", "oldPassword": PASSWORD}
    response = signed_in.put(f"/users/{user.pk}", body, format="json")
    assert response.status_code == 200, response.content
    assert check_password(" spaces are kept ", stored_password())


def test_multi_create_hashes_every_password(client):
    body = [{"email": f"user{n}@example.com", "password": f"secret {n}"} for n in range(3)]
    response = client.post("/profiles", body, format="json")
    assert response.status_code == 201
    assert all("password" not in record for record in response.json())
    for n in range(3):
        assert check_password(f"secret {n}", stored_password(f"user{n}@example.com"))


@pytest.mark.parametrize("path", ["/users", "/profiles"])
def test_the_password_is_never_sent(signed_in, user, path):
    for response in [signed_in.get(path), signed_in.get(f"{path}/{user.pk}")]:
        assert response.status_code == 200
        assert "password" not in response.content.decode()
        assert user.password not in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "password=x",
        f"password={PASSWORD}",
        "password[$ne]=x",
        "$or[0][password]=x",
        "$sort[password]=1",
        "$select[]=password",
    ],
)
def test_the_password_is_never_queryable_sortable_or_selectable(signed_in, query):
    response = signed_in.get(f"/users?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["name"] == "BadRequest"
    assert "password" in response.json()["message"]


def test_password_validators_apply(settings, client):
    settings.AUTH_PASSWORD_VALIDATORS = [
        {
            "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
            "OPTIONS": {"min_length": 12},
        }
    ]
    response = client.post("/users", {"email": EMAIL, "password": "short"}, format="json")
    assert response.status_code == 400
    assert "password" in response.json()["errors"]
    assert not User.objects.exists(), "nothing is stored"


def test_a_password_is_required_on_create(client):
    response = client.post("/users", {"email": EMAIL}, format="json")
    assert response.status_code == 400
    assert "password" in response.json()["errors"]

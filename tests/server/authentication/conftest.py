"""Shared fixtures: an explicit secret, a user who logs in with an email, and helpers."""

from __future__ import annotations

import pytest

SECRET = "an-explicit-test-secret-of-sixty-four-bytes-for-hs256-hs384-hs512"
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"


SERVICES = {
    "whoami": "tests.server.authentication.services.WhoAmIService",
    "session-only": "tests.server.authentication.services.SessionOnlyService",
}


@pytest.fixture(autouse=True)
def authentication_settings(settings):
    """Authentication configured with an explicit secret, and a service telling who calls."""
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "AUTHENTICATION": {"SECRET": SECRET}}
    return settings.DJANGO_SERVICES["AUTHENTICATION"]


@pytest.fixture
def configure(settings):
    """Replace `DJANGO_SERVICES["AUTHENTICATION"]` keys: `configure(JWT={"AUDIENCE": ...})`."""

    def apply(**keys):
        settings.DJANGO_SERVICES = {
            **settings.DJANGO_SERVICES,
            "AUTHENTICATION": {"SECRET": SECRET, **keys},
        }

    return apply


@pytest.fixture
def user(db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)

"""System checks of the authentication settings, run through Django's check framework."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from rest_framework.permissions import (
    AllowAny,
    BasePermission,
    IsAdminUser,
    IsAuthenticated,
    IsAuthenticatedOrReadOnly,
)

from django_services.server import ModelService
from django_services.server.authentication import UserService
from django_services.server.authentication.permissions import AccountPermission
from tests.testapp.models import User

from .conftest import SECRET
from .test_users import ProfileSerializer


def authentication_messages():
    """The messages of the authentication checks (ids django_services.W1xx and E1xx)."""
    ours = ("django_services.W1", "django_services.E1")
    return {m.id: m for m in run_checks() if m.id.startswith(ours)}


def messages(settings, **authentication):
    settings.DJANGO_SERVICES = {"AUTHENTICATION": authentication}
    return authentication_messages()


def test_a_complete_configuration_passes(settings):
    assert messages(settings, SECRET=SECRET) == {}


def test_no_check_runs_when_authentication_is_not_configured(settings):
    settings.DJANGO_SERVICES = {}
    assert authentication_messages() == {}


def test_a_missing_secret_is_a_warning(settings):
    found = messages(settings)
    assert list(found) == ["django_services.W101"]
    assert "SECRET" in found["django_services.W101"].msg
    assert found["django_services.W101"].hint


@pytest.mark.parametrize(
    ("algorithm", "secret"),
    [("HS256", "x" * 31), ("HS512", "x" * 63), ("HS384", b"x" * 47)],
)
def test_a_short_secret_is_a_warning(settings, algorithm, secret):
    found = messages(settings, SECRET=secret, JWT={"ALGORITHM": algorithm})
    assert list(found) == ["django_services.W102"]


@pytest.mark.parametrize("algorithm", ["none", "RS256", "hs256", None])
def test_only_hmac_algorithms(settings, algorithm):
    found = messages(settings, SECRET=SECRET, JWT={"ALGORITHM": algorithm})
    assert "django_services.E101" in found
    assert "HS256, HS384, HS512" in found["django_services.E101"].hint


def test_allowed_strategies_must_exist(settings):
    found = messages(settings, SECRET=SECRET, AUTH_STRATEGIES=["local", "oauth"])
    assert "'oauth'" in found["django_services.E102"].msg


@pytest.mark.parametrize("path", ["no.such.module.Strategy", "django_services.errors.NotFound"])
def test_strategy_classes_must_import_and_be_strategies(settings, path):
    found = messages(settings, SECRET=SECRET, STRATEGIES={"custom": path})
    assert path in found["django_services.E103"].msg
    assert "'custom'" in found["django_services.E103"].msg


@pytest.mark.parametrize("rate", ["10/min", "5/s", "100/hour", "1/day", None])
def test_valid_throttle_rates(settings, rate):
    assert messages(settings, SECRET=SECRET, THROTTLE_RATE=rate) == {}


@pytest.mark.parametrize("rate", ["10", "ten/min", "10/week", 10])
def test_invalid_throttle_rates(settings, rate):
    assert "django_services.E104" in messages(settings, SECRET=SECRET, THROTTLE_RATE=rate)


def test_the_revocation_cache_must_be_an_alias(settings):
    found = messages(settings, SECRET=SECRET, REVOCATION_CACHE="redis")
    assert "'redis'" in found["django_services.E105"].msg
    assert messages(settings, SECRET=SECRET, REVOCATION_CACHE="default") == {}


@pytest.mark.parametrize("value", [0, -5, "1d", None, True, timedelta(0)])
def test_expires_in_must_be_positive(settings, value):
    assert "django_services.E106" in messages(settings, SECRET=SECRET, JWT={"EXPIRES_IN": value})


def test_a_non_dict_setting_does_not_break_the_checks(settings):
    settings.DJANGO_SERVICES = {"AUTHENTICATION": "yes"}
    assert authentication_messages() == {}


@pytest.mark.parametrize(
    "refresh",
    [
        {"EXPIRES_IN": 0},
        {"EXPIRES_IN": "14d"},
        {"EXPIRES_IN": timedelta(0)},
        {"COOKIE": "yes"},
        {"COOKIE_NAME": ""},
        {"COOKIE_NAME": "a cookie; path=/"},
    ],
)
def test_refresh_options_must_be_valid(settings, refresh):
    found = messages(settings, SECRET=SECRET, REFRESH=refresh)
    assert set(found) == {"django_services.E108"}
    assert repr(next(iter(refresh.values()))) in found["django_services.E108"].msg


def test_valid_refresh_options_pass(settings):
    refresh = {"EXPIRES_IN": timedelta(days=30), "COOKIE": True, "COOKIE_NAME": "refresh_1"}
    assert messages(settings, SECRET=SECRET, REFRESH=refresh) == {}


# The users services (django_services.W111) ---------------------------------------------------


class SignUpOrAuthenticated(BasePermission):
    """The docs' former snippet: anyone signs up, every other method needs a login."""

    def has_permission(self, request, view):
        return view.action == "create" or request.user.is_authenticated


class EveryoneSeesEveryone(UserService):
    permission_classes = [SignUpOrAuthenticated]

    def restrict_to_owner(self, queryset):
        return queryset


class DirectoryUserService(UserService):
    """Widened reads, writes still kept to owners by the default AccountPermission."""

    def restrict_to_owner(self, queryset):
        return queryset


class SignUpOnlyUserService(EveryoneSeesEveryone):
    methods = ["create", "find", "get"]


class StaffOnlyUserService(EveryoneSeesEveryone):
    permission_classes = [IsAdminUser]


class OwnedUserService(EveryoneSeesEveryone):
    permission_classes = [IsAuthenticated & AccountPermission]


class PlainUsers(ModelService):
    queryset = User.objects.all()
    serializer_class = ProfileSerializer


class PlainOwnUsers(PlainUsers):
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return super().get_queryset().filter(pk=self.request.user.pk)


HERE = "tests.server.authentication.test_checks."


def users_messages(settings, service):
    settings.DJANGO_SERVICES = {
        "SERVICES": {"users": service},
        "AUTHENTICATION": {"SECRET": SECRET},
    }
    call_command("check")  # the warning is a warning: `check` passes
    return authentication_messages()


@pytest.mark.parametrize(
    ("service", "permissions"),
    [
        (HERE + "EveryoneSeesEveryone", {}),
        (HERE + "PlainUsers", {}),
        (HERE + "PlainUsers", {"permission_classes": [IsAuthenticatedOrReadOnly]}),
        (HERE + "PlainUsers", {"permission_classes": [AllowAny]}),
    ],
)
def test_a_users_service_letting_anyone_write_any_account_is_named(settings, service, permissions):
    if permissions:
        service = {"class": service, **permissions}
    found = users_messages(settings, service)
    assert list(found) == ["django_services.W111"]
    assert "'users'" in found["django_services.W111"].msg
    assert "AccountPermission" in found["django_services.W111"].hint


@pytest.mark.parametrize(
    "service",
    [
        "django_services.server.authentication.UserService",
        HERE + "DirectoryUserService",
        HERE + "SignUpOnlyUserService",
        HERE + "StaffOnlyUserService",
        HERE + "OwnedUserService",
        HERE + "PlainOwnUsers",
        "tests.server.authentication.services.RecentLoginUserService",
    ],
)
def test_a_users_service_keeping_accounts_to_their_owners_passes(settings, service):
    assert users_messages(settings, service) == {}


def test_the_check_names_a_users_service_in_manage_py_check(settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": {"members": HERE + "EveryoneSeesEveryone"},
        "AUTHENTICATION": {"SECRET": SECRET},
    }
    out = StringIO()
    call_command("check", stderr=out, stdout=out)
    assert "django_services.W111" in out.getvalue()
    assert "'members'" in out.getvalue()

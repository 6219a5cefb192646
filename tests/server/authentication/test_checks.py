"""System checks of the authentication settings, run through Django's check framework."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.checks import run_checks

from .conftest import SECRET


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

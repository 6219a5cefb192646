"""The retry decision and the timeout values, which involve no I/O."""

from __future__ import annotations

import email.utils

import pytest

from django_services.client import DEFAULT_TIMEOUT, Retries, TimeoutConfig
from django_services.client.config import parse_retry_after


@pytest.mark.parametrize("method", ["find", "get", "update", "remove"])
@pytest.mark.parametrize("status", [None, 429, 502, 503, 504])
def test_idempotent_methods_retry_on_connection_errors_and_retry_statuses(method, status):
    assert Retries().delay(method, 1, status=status) is not None


@pytest.mark.parametrize("method", ["create", "patch", "markAllComplete"])
def test_other_methods_never_retry_unless_listed(method):
    assert Retries().delay(method, 1, status=503) is None
    assert Retries().delay(method, 1) is None
    assert Retries(methods={method}).delay(method, 1, status=503) is not None


@pytest.mark.parametrize("status", [400, 401, 404, 409, 500, 501])
def test_other_statuses_are_not_retried(status):
    assert Retries().delay("get", 1, status=status) is None


def test_backoff_doubles_up_to_the_maximum_and_stops_after_total():
    retries = Retries(total=5, backoff_factor=0.5, backoff_max=3, jitter=0)

    delays = [retries.delay("find", retry, status=503) for retry in range(1, 7)]

    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0, None]


def test_jitter_takes_up_to_its_share_off_the_wait():
    retries = Retries(backoff_factor=1, jitter=0.5)

    assert retries.delay("find", 2, random=0.0) == 2.0
    assert retries.delay("find", 2, random=0.5) == 1.5
    assert retries.delay("find", 2, random=0.999) == pytest.approx(1.001)


def test_retry_after_seconds_and_dates():
    retries = Retries(retry_after_max=100)
    now = 1_700_000_000.0
    in_30s = email.utils.formatdate(now + 30, usegmt=True)

    assert retries.delay("get", 1, status=429, retry_after="7", now=now) == 7.0
    assert retries.delay("get", 1, status=503, retry_after=in_30s, now=now) == 30.0
    assert retries.delay("get", 1, status=503, retry_after="101", now=now) is None
    # An unreadable value falls back to the backoff.
    assert retries.delay("get", 1, status=503, retry_after="soon", random=0) == 0.5


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("0", 0.0),
        (" 12 ", 12.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # in the past
        ("-5", None),
        ("", None),
        (None, None),
        ("later", None),
    ],
)
def test_parse_retry_after(value, seconds):
    assert parse_retry_after(value, now=1_700_000_000.0) == seconds


def test_retries_coerce():
    assert Retries.coerce(None) is None
    assert Retries.coerce(0) is None
    assert Retries.coerce(4) == Retries(total=4)
    retries = Retries(total=1)
    assert Retries.coerce(retries) is retries
    with pytest.raises(TypeError):
        Retries.coerce("3")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"total": -1},
        {"total": True},
        {"backoff_factor": -1},
        {"jitter": 1.5},
        {"methods": "find"},
        {"methods": [1]},
        {"statuses": ["503"]},
    ],
)
def test_retries_reject_bad_values(kwargs):
    with pytest.raises((TypeError, ValueError)):
        Retries(**kwargs)


def test_retries_are_frozen_and_hashable():
    retries = Retries(methods=["find"], statuses=[503])

    assert retries.methods == frozenset({"find"})
    assert hash(retries) == hash(Retries(methods={"find"}, statuses={503}))
    with pytest.raises(AttributeError):
        retries.total = 9


def test_timeout_config():
    assert TimeoutConfig(connect=10.0, read=30.0) == DEFAULT_TIMEOUT
    assert TimeoutConfig.coerce(5) == TimeoutConfig(connect=5.0, read=5.0)
    assert TimeoutConfig.coerce(DEFAULT_TIMEOUT) is DEFAULT_TIMEOUT


@pytest.mark.parametrize("value", [None, 0, -1, float("inf"), float("nan"), "5", True])
def test_there_is_no_infinite_timeout(value):
    with pytest.raises((TypeError, ValueError)):
        TimeoutConfig.coerce(value)

"""
The package's clock: tokens expire, refresh tokens run out and are cleared, and waits end as
the clock moves on, with no test waiting for time to pass.
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
import uuid
from datetime import datetime, timezone

import jwt
import pytest
from django.core.management import call_command

from django_services import clock, errors
from django_services.server.authentication import create_access_token, verify_access_token
from tests.waiting import eventually

pytestmark = pytest.mark.django_db

SECRET = "the-clock-tests-jwt-secret-of-at-least-32-bytes"
EMAIL = "ada@example.com"


@pytest.fixture(autouse=True)
def authentication(settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": {},
        "AUTHENTICATION": {"SECRET": SECRET, "JWT": {"EXPIRES_IN": 60}},
    }


@pytest.fixture
def user():
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password="correct horse battery staple")


def refused(token: str) -> str:
    with pytest.raises(errors.NotAuthenticated) as info:
        verify_access_token(token)
    return info.value.message


def signed(**claims) -> str:
    base = {"aud": "https://yourdomain.com", "iss": "feathers", "sub": "1", "jti": "j"}
    return jwt.encode({**base, **claims}, SECRET, headers={"typ": "access"})


def test_the_system_clock_is_the_machines():
    before = time.time()
    assert before <= clock.time() <= time.time()
    assert clock.now().tzinfo is timezone.utc
    assert abs(clock.now().timestamp() - time.time()) < 5


def test_a_manual_clock_moves_only_forward_and_only_when_told():
    manual = clock.ManualClock(start=1_000_000)
    with clock.replaced(manual):
        started = clock.monotonic()
        assert (clock.time(), clock.now()) == (
            1_000_000,
            datetime.fromtimestamp(1_000_000, tz=timezone.utc),
        )
        manual.advance(2.5)
        assert (clock.time(), clock.monotonic() - started) == (1_000_002.5, 2.5)
        with pytest.raises(ValueError):
            manual.advance(-1)
    assert abs(clock.time() - time.time()) < 5


def test_now_is_naive_local_time_without_time_zones(settings, manual_clock):
    settings.USE_TZ = False
    assert clock.now() == datetime.fromtimestamp(manual_clock.time())


def test_an_access_token_expires_when_the_servers_clock_passes_its_exp(user, manual_clock):
    token = create_access_token(str(user.pk))
    assert jwt.decode(token, options={"verify_signature": False})["iat"] == int(manual_clock.time())
    manual_clock.advance(59)
    assert verify_access_token(token)["sub"] == str(user.pk)
    manual_clock.advance(1)
    assert refused(token) == "jwt expired"


def test_the_leeway_is_counted_on_the_servers_clock(settings, manual_clock):
    settings.DJANGO_SERVICES["AUTHENTICATION"]["JWT"]["LEEWAY"] = 30
    now = int(manual_clock.time())
    token = signed(iat=now - 60, exp=now)
    manual_clock.advance(29)
    assert verify_access_token(token)["sub"] == "1"
    manual_clock.advance(1)
    assert refused(token) == "jwt expired"


@pytest.mark.parametrize("claim", ["iat", "nbf"])
def test_a_token_is_not_active_until_the_servers_clock_reaches_it(manual_clock, claim):
    now = int(manual_clock.time())
    token = signed(**{"iat": now, claim: now + 10, "exp": now + 60})
    assert refused(token) == "jwt not active"
    manual_clock.advance(10)
    assert verify_access_token(token)["sub"] == "1"


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ("iat", "invalid token: Issued At claim (iat) must be an integer."),
        ("nbf", "jwt malformed"),
        ("exp", "jwt malformed"),
    ],
)
def test_a_time_claim_that_is_no_integer_is_refused(manual_clock, claim, message):
    now = int(manual_clock.time())
    assert refused(signed(**{"iat": now, "exp": now + 60, claim: "soon"})) == message


def test_an_expired_token_for_another_audience_is_expired_first(manual_clock):
    now = int(manual_clock.time())
    token = signed(iat=now, exp=now + 1, aud="https://elsewhere.example")
    assert refused(token) == "jwt audience invalid. expected: https://yourdomain.com"
    manual_clock.advance(1)
    assert refused(token) == "jwt expired"


def test_a_refresh_token_runs_out_and_is_cleared_on_the_servers_clock(user, manual_clock):
    from django_services.models import RefreshToken
    from django_services.server.authentication.refresh import (
        issue_refresh_token,
        verify_refresh_token,
    )

    token, family = issue_refresh_token(user)
    assert uuid.UUID(family)
    manual_clock.advance(14 * 86400 - 1)
    assert verify_refresh_token(token)["sub"] == str(user.pk)
    out = io.StringIO()
    call_command("clear_refresh_tokens", stdout=out)
    assert (out.getvalue(), RefreshToken.objects.count()) == (
        "Deleted 0 expired refresh tokens.\n",
        1,
    )

    manual_clock.advance(1)
    with pytest.raises(errors.NotAuthenticated, match="jwt expired"):
        verify_refresh_token(token)
    manual_clock.advance(1)
    call_command("clear_refresh_tokens", stdout=out)
    assert RefreshToken.objects.count() == 0


async def test_a_manual_clocks_alarms_ring_in_order_as_it_reaches_them():
    manual = clock.ManualClock(start=1000)
    rung: list[str] = []
    with clock.replaced(manual):
        clock.alarm(1010, lambda: rung.append("second"))
        clock.alarm(1005, lambda: rung.append("first"))
        clock.alarm(1007, lambda: rung.append("cancelled")).cancel()
        assert clock.alarm(1020, lambda: None).when() == 1020
        manual.advance(4)
        # Each alarm runs on the loop: `sleep(0)` is a turn of it, not time passing.
        await asyncio.sleep(0)
        assert rung == []
        manual.advance(6)
        await asyncio.sleep(0)
        assert rung == ["first", "second"]
        clock.alarm(900, lambda: rung.append("past"))
        await asyncio.sleep(0)
    assert rung == ["first", "second", "past"]


async def test_the_system_clocks_alarm_is_a_timer_of_the_event_loop():
    rung = asyncio.Event()
    alarm = clock.alarm(clock.time() + 0.01, rung.set)
    assert abs(alarm.when() - (time.time() + 0.01)) < 1
    await asyncio.wait_for(rung.wait(), 10)
    cancelled = clock.alarm(clock.time(), lambda: pytest.fail("a cancelled alarm rang"))
    cancelled.cancel()
    later = asyncio.Event()
    clock.alarm(clock.time(), later.set)
    await asyncio.wait_for(later.wait(), 10)


def waiting(manual: clock.ManualClock, event: threading.Event, seconds: float) -> list[bool]:
    """Wait on `manual` in a thread; the list receives what the wait returned."""
    outcome: list[bool] = []
    waits = len(manual.waits)
    thread = threading.Thread(target=lambda: outcome.append(manual.wait(event, seconds)))
    thread.start()
    eventually(lambda: len(manual.waits) > waits, message="the thread waits on the clock")
    return outcome


def test_a_manual_clocks_wait_lasts_until_it_is_moved_that_far_or_the_event_is_set():
    manual = clock.ManualClock(start=1000)
    interrupted = threading.Event()
    outcome = waiting(manual, interrupted, 5)
    manual.advance(4)
    interrupted.set()  # still waiting after 4 s: the event ends the wait
    eventually(lambda: outcome, message="the wait ends")
    assert outcome == [True]

    outcome = waiting(manual, threading.Event(), 5)
    manual.advance(5)
    eventually(lambda: outcome, message="the wait ends")
    assert (outcome, manual.waits, manual.time()) == ([False], [5, 5], 1009)


def test_an_automatic_manual_clock_lets_each_wait_pass_at_once():
    manual = clock.ManualClock(start=1000, auto=True)
    manual.sleep(3)
    assert manual.wait(threading.Event(), 2) is False
    asyncio.run(manual.asleep(10))
    assert (manual.waits, manual.time()) == ([3, 2, 10], 1015)


async def test_a_task_sleeping_on_a_manual_clock_wakes_when_it_is_moved_that_far():
    manual = clock.ManualClock(start=1000)
    sleeper = asyncio.ensure_future(manual.asleep(10))
    await asyncio.sleep(0)
    assert manual.waits == [10]
    manual.advance(9)
    barrier = asyncio.Event()
    manual.alarm(manual.time(), barrier.set)  # rings on the loop after the sleeper would wake
    await asyncio.wait_for(barrier.wait(), 10)
    assert not sleeper.done()
    manual.advance(1)
    await asyncio.wait_for(sleeper, 10)


def test_the_system_clock_waits_on_the_machines_time():
    system = clock.SystemClock()
    ready = threading.Event()
    ready.set()
    assert system.wait(ready, 10) is True
    assert system.wait(threading.Event(), 0) is False
    started = time.monotonic()
    system.sleep(0.01)
    asyncio.run(system.asleep(0.01))
    assert time.monotonic() - started >= 0.02


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_the_clients_flows_run_on_the_package_clock_unless_given_another(driver):
    from django_services.client._flow import Now, Sleep, arun, run

    def flow():
        before = yield Now()
        yield Sleep(30)
        after = yield Now()
        return before, after

    def drive(**options):
        if driver == "sync":
            return run(flow(), **options)
        return asyncio.run(arun(flow(), **options))

    with clock.replaced(clock.ManualClock(start=1000, auto=True)) as manual:
        assert drive() == (1000, 1030)
        own = clock.ManualClock(start=5000, auto=True)
        assert drive(clock=own) == (5000, 5030)
    assert (manual.waits, own.waits) == ([30], [30])

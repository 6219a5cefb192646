"""The refresh timer on a clock the test moves: when it calls back, and that a cancel holds."""

from __future__ import annotations

import asyncio
import threading
import time

import jwt
import pytest

from django_services.client.refresh import RefreshTimer
from django_services.clock import ManualClock

NOW = 1_000_000.0


def token(expiry=None):
    claims = {} if expiry is None else {"exp": int(expiry)}
    return jwt.encode({"sub": "1", **claims}, "a-test-key-of-enough-length-1234", algorithm="HS256")


def test_the_callback_is_due_a_margin_before_expiry_or_halfway():
    timer = RefreshTimer(lambda token: None, asynchronous=False, clock=ManualClock(NOW))

    assert timer.delay(token(NOW + 600), 60) == 540
    assert timer.delay(token(NOW + 30), 60) == 15
    assert timer.delay(token(NOW - 5), 60) == 0
    assert timer.delay(token(), 60) is None


def wait_until(predicate):
    deadline = time.monotonic() + 10
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def timer_threads():
    return [thread for thread in threading.enumerate() if thread.name == "refresh-timer"]


def test_a_sync_timer_calls_back_once_the_clock_is_there_and_never_once_cancelled():
    clock = ManualClock(NOW)
    called = []
    timer = RefreshTimer(called.append, asynchronous=False, clock=clock)
    first, second = token(NOW + 100), token(NOW + 300)

    timer.schedule(first, 60)
    timer.cancel()
    timer.schedule(second, 60)
    wait_until(lambda: len(clock.waits) == 2)  # both timers wait on the clock
    clock.advance(240)

    wait_until(lambda: not timer_threads())
    assert called == [second]
    assert sorted(clock.waits) == [50, 240]


async def test_an_async_timer_calls_back_once_the_clock_is_there_and_never_once_cancelled():
    clock = ManualClock(NOW)
    called = []
    done = asyncio.Event()

    async def callback(value):
        called.append(value)
        done.set()

    timer = RefreshTimer(callback, asynchronous=True, clock=clock)
    first, second = token(NOW + 100), token(NOW + 300)
    timer.schedule(first, 60)
    await asyncio.sleep(0)
    timer.cancel()
    timer.schedule(second, 60)
    await asyncio.sleep(0)
    clock.advance(240)

    await asyncio.wait_for(done.wait(), 10)
    assert called == [second]
    assert clock.waits == [50, 240]


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_failed_refresh_leaves_the_timer_quiet(asynchronous):
    from django_services.errors import NotAuthenticated

    clock = ManualClock(NOW, auto=True)
    attempts = []

    def refuse(value):
        attempts.append(value)
        raise NotAuthenticated("refresh token revoked")

    async def arefuse(value):
        refuse(value)

    timer = RefreshTimer(
        arefuse if asynchronous else refuse, asynchronous=asynchronous, clock=clock
    )
    if asynchronous:

        async def main():
            timer.schedule(token(NOW + 100), 60)
            while not attempts:
                await asyncio.sleep(0.001)

        asyncio.run(main())
    else:
        timer.schedule(token(NOW + 100), 60)
        wait_until(lambda: not timer_threads())
    assert len(attempts) == 1

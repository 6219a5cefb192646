"""
One connection's calls cannot hold up another's: a socket with many expensive calls in flight
(sign-ups, each hashing a password) leaves the other sockets' calls their threads, and their
events their time.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

pytestmark = pytest.mark.django_db(transaction=True)


class SlowHasher(PBKDF2PasswordHasher):
    """A password hasher whose work is a few tens of milliseconds, as a real one's is more."""

    algorithm = "pbkdf2_sha256_slow_test"
    iterations = 60_000


@pytest.fixture
def slow_hashing(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.SlowHasher"]


async def test_a_socket_hashing_passwords_leaves_others_their_calls(slow_hashing, connect):
    hasher = await connect()
    other = await connect()
    assert await other.call("find", "people", {}) == []

    async def time_finds(count: int) -> list[float]:
        durations = []
        for _ in range(count):
            started = time.perf_counter()
            assert await other.call("find", "people", {}) == []
            durations.append(time.perf_counter() - started)
        return sorted(durations)

    quiet = await time_finds(20)
    sign_ups = [
        hasher.ack("create", "users", {"email": f"u{n}@example.com", "password": "p" * 12}, {})
        for n in range(32)
    ]
    signing_up = asyncio.gather(*sign_ups)
    busy = await time_finds(20)
    answers = await signing_up
    # Every sign-up answered (SQLite may answer some 503 busy: one writer at a time).
    assert len(answers) == 32 and sum(answer[0] is None for answer in answers) >= 1
    # The other socket's slowest find while 32 sign-ups are in flight: a few calls' worth of
    # waiting at most, not the queue of sign-ups ahead of it.
    assert busy[-1] < quiet[-1] + 0.25, (quiet, busy)


async def test_a_socket_hashing_passwords_leaves_others_their_events(
    slow_hashing, connect, live_socket_server
):
    hasher = await connect()
    listener = await connect()
    server = live_socket_server.application.server
    arrivals: asyncio.Queue[int] = asyncio.Queue()
    listener.sio.on("tick", lambda data: arrivals.put_nowait(data["n"]))

    async def time_events(count: int) -> list[float]:
        durations = []
        for n in range(count):
            started = time.perf_counter()
            emitted = asyncio.run_coroutine_threadsafe(
                server.sio.emit("tick", {"n": n}), server.loop
            )
            assert await asyncio.wait_for(arrivals.get(), 10) == n
            durations.append(time.perf_counter() - started)
            await asyncio.wrap_future(emitted)
        return sorted(durations)

    quiet = await time_events(20)
    sign_ups = [
        hasher.ack("create", "users", {"email": f"u{n}@example.com", "password": "p" * 12}, {})
        for n in range(32)
    ]
    signing_up = asyncio.gather(*sign_ups)
    busy = await time_events(20)
    assert not signing_up.done(), "the sign-ups ended before the events were timed"
    answers = await signing_up
    assert len(answers) == 32
    # The other socket's slowest event while 32 sign-ups are in flight: no queue of sign-ups
    # ahead of it.
    assert busy[-1] < quiet[-1] + 0.25, (quiet, busy)

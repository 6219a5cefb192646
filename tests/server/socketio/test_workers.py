"""
One connection's calls cannot hold up another's: a socket with many expensive calls in flight
(sign-ups, each hashing a password) leaves the other sockets' calls their threads.
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

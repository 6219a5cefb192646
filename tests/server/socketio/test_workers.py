"""
One connection's calls cannot hold up another's: a socket with many expensive calls in flight
(sign-ups, each hashing a password) leaves the other sockets' calls their threads, and their
events their time.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from django_services.server.socketio.workers import CallWorkers

pytestmark = pytest.mark.django_db(transaction=True)


class SlowHasher(PBKDF2PasswordHasher):
    """A password hasher whose work is a few tens of milliseconds, as a real one's is more."""

    algorithm = "pbkdf2_sha256_slow_test"
    iterations = 60_000


@pytest.fixture
def slow_hashing(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.SlowHasher"]


def signing_up(hasher, count=32):
    """`count` sign-ups sent at once on `hasher`, each hashing a password; their answers."""
    return [
        asyncio.ensure_future(
            hasher.ack("create", "users", {"email": f"u{n}@example.com", "password": "p" * 12}, {})
        )
        for n in range(count)
    ]


# Fairness is shown by order, not by time: the other socket's 20 calls (or events) are all
# answered while the sign-ups sent before them are still being hashed. Queued behind them,
# they would come after the last one.


async def test_a_socket_hashing_passwords_leaves_others_their_calls(slow_hashing, connect):
    hasher = await connect()
    other = await connect()
    assert await other.call("find", "people", {}) == []

    sign_ups = signing_up(hasher)
    for _ in range(20):
        assert await other.call("find", "people", {}) == []
    answered_meanwhile = sum(sign_up.done() for sign_up in sign_ups)
    answers = await asyncio.gather(*sign_ups)

    # Every sign-up answered (SQLite may answer some 503 busy: one writer at a time).
    assert len(answers) == 32 and sum(answer[0] is None for answer in answers) >= 1
    assert answered_meanwhile < len(sign_ups), "the finds waited for every sign-up"


async def test_a_socket_hashing_passwords_leaves_others_their_events(
    slow_hashing, connect, live_socket_server
):
    hasher = await connect()
    listener = await connect()
    server = live_socket_server.application.server
    arrivals: asyncio.Queue[int] = asyncio.Queue()
    listener.sio.on("tick", lambda data: arrivals.put_nowait(data["n"]))

    sign_ups = signing_up(hasher)
    for n in range(20):
        emitted = asyncio.run_coroutine_threadsafe(server.sio.emit("tick", {"n": n}), server.loop)
        assert await asyncio.wait_for(arrivals.get(), 10) == n
        await asyncio.wrap_future(emitted)
    answered_meanwhile = sum(sign_up.done() for sign_up in sign_ups)
    answers = await asyncio.gather(*sign_ups)

    assert len(answers) == 32
    assert answered_meanwhile < len(sign_ups), "the events waited for every sign-up"


async def test_session_writes_queued_when_the_server_stops_are_still_written():
    workers = CallWorkers(threads=2)
    started, release = threading.Event(), threading.Event()
    written = []

    def slow_write():
        started.set()
        release.wait(10)
        written.append("first")

    first = asyncio.ensure_future(workers.run_in_sessions_thread(slow_write))
    await asyncio.to_thread(started.wait, 10)
    second = asyncio.ensure_future(workers.run_in_sessions_thread(written.append, "second"))
    # Barrier: the second write waits in the sessions thread's queue behind the first.
    while workers.sessions_executor._work_queue.qsize() == 0:
        await asyncio.sleep(0)

    workers.shutdown()
    release.set()

    await asyncio.wait_for(asyncio.gather(first, second), 10)
    assert written == ["first", "second"]

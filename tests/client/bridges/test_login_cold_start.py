"""
A cold start of the login strategy, over real HTTP: callers of one process that find no token
at the same moment, threads or asyncio tasks, share one login instead of each logging in.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from django_services.client.bridges.locks import process_locks
from django_services.client.remotes import remotes
from django_services.errors import NotAuthenticated
from tests.harness import connection_per_request_thread
from tests.remotes.fixtures import PASSWORD_VARIABLE, SERVICE_EMAIL, SERVICE_PASSWORD
from tests.remotes.services import LOGIN_DELAY, LOGINS

pytestmark = pytest.mark.usefixtures("live_remotes", "users")

CALLERS = 16


@pytest.fixture(autouse=True)
def own_connections(live_server):
    """Concurrent callers, served by request threads with a database connection each."""
    with connection_per_request_thread(live_server):
        yield


@pytest.fixture(autouse=True)
def slow_logins():
    """Logins that take a while, as a remote hashing passwords for real: a wide window."""
    LOGIN_DELAY["seconds"] = 0.3
    yield
    LOGIN_DELAY["seconds"] = 0.0


def in_threads(count, call):
    """Run `call()` in `count` threads released at once; return their results."""
    start = threading.Barrier(count)

    def run():
        start.wait(timeout=10)
        return call()

    with ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(run) for _ in range(count)]
        return [future.result(timeout=60) for future in futures]


def find():
    return remotes["login"].service("caller").find()


async def afind():
    return await remotes["login"].service("caller").find()


def assert_one_login(answers):
    assert len(LOGINS) == 1, LOGINS.entries
    assert {answer["email"] for answer in answers} == {SERVICE_EMAIL}
    assert len({answer["authorization"] for answer in answers}) == 1
    assert not process_locks._entries, "every lock was released and dropped"


@pytest.mark.parametrize("kind", ["requests", "httpx"])
def test_threads_of_one_process_log_in_once(harness):
    assert_one_login(in_threads(CALLERS, find))


@pytest.mark.parametrize("kind", ["httpx-async", "aiohttp"])
def test_asyncio_tasks_of_one_loop_log_in_once(harness):
    async def all_at_once():
        return await asyncio.gather(*(afind() for _ in range(CALLERS)))

    assert_one_login(harness.call(all_at_once))


@pytest.mark.parametrize("kind", ["aiohttp"])
def test_event_loops_in_several_threads_log_in_once(harness):
    def own_loop():
        return asyncio.run(afind())

    assert_one_login(in_threads(CALLERS, own_loop))


@pytest.mark.parametrize("kind", ["requests"])
def test_a_failed_login_releases_the_lock(harness, monkeypatch):
    LOGIN_DELAY["seconds"] = 0.0
    monkeypatch.setenv(PASSWORD_VARIABLE, "not the password")

    def refused():
        with pytest.raises(NotAuthenticated) as failure:
            find()
        return failure.value

    failures = in_threads(4, refused)

    assert {failure.message for failure in failures} == {"Invalid login"}
    assert not process_locks._entries
    monkeypatch.setenv(PASSWORD_VARIABLE, SERVICE_PASSWORD)
    assert find()["email"] == SERVICE_EMAIL
    assert len(LOGINS) == 1


@pytest.mark.parametrize("kind", ["httpx-async"])
def test_a_task_cancelled_during_its_login_releases_the_lock(harness):
    async def cancel_the_first_login():
        first = asyncio.ensure_future(afind())
        while not process_locks._entries:
            await asyncio.sleep(0.005)
        waiting = asyncio.ensure_future(afind())
        await asyncio.sleep(0.05)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        return await asyncio.wait_for(waiting, timeout=10)

    answer = harness.call(cancel_the_first_login)

    assert answer["email"] == SERVICE_EMAIL
    assert not process_locks._entries

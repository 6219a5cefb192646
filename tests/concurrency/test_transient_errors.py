"""
A write that cannot get its lock in time answers `503 Unavailable` with `Retry-After`, writes
nothing, and is logged; a remote with retries sends an idempotent call again and succeeds.

A real server process runs on a real database whose lock wait is short (1 s): SQLite's busy
timeout, or PostgreSQL's `lock_timeout`. The test holds the lock from a connection of its own:
SQLite's write lock (`BEGIN IMMEDIATE`), or a PostgreSQL table lock that blocks writers but not
readers, as SQLite's does.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
import pytest
import requests

from django_services.client.remotes import remotes
from django_services.errors import Unavailable
from tests.server.conformance_servers import Deployment, conformance_servers
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture

POSTGRES = urlsplit(os.environ.get("DATABASE_URL", "")).scheme in ("postgres", "postgresql")
LOCK_WAIT = {"options": "-c lock_timeout=1000"} if POSTGRES else {"timeout": 1}
TABLES = ("testapp_todo", "testapp_person")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    log_dir: Path = tmp_path_factory.mktemp("transient-errors")
    env = {"CONFORMANCE_DATABASE_OPTIONS": json.dumps(LOCK_WAIT)}
    with conformance_servers(log_dir, count=1, label="transient", env=env) as started:
        yield started


@pytest.fixture
def url(deployment: Deployment) -> str:
    requests.post(deployment.urls[0] + "/__reset", timeout=30).raise_for_status()
    return deployment.urls[0]


@contextlib.contextmanager
def writers_locked_out(database_url: str) -> Iterator[None]:
    """Hold a lock that makes every write to the fixture's tables wait, until the block ends."""
    settings = dj_database_url.parse(database_url)
    if POSTGRES:
        import psycopg

        connection: Any = psycopg.connect(database_url)
        for table in TABLES:
            connection.execute(f'LOCK TABLE "{table}" IN SHARE ROW EXCLUSIVE MODE')
    else:
        connection = sqlite3.connect(
            settings["NAME"], isolation_level=None, check_same_thread=False
        )
        connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        connection.rollback()
        connection.close()


def assert_unavailable(response: requests.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"] == "1"
    assert response.json() == {
        "name": "Unavailable",
        "message": "The database is busy: send the request again in a moment",
        "code": 503,
        "className": "unavailable",
    }


def test_writes_that_wait_too_long_for_the_lock_answer_503_and_write_nothing(url, deployment):
    todo = requests.post(url + "/todos", json={"text": "kept"}, timeout=30).json()
    people = requests.post(
        url + "/people", json=[{"name": "Ada", "age": 1}, {"name": "Bob", "age": 2}], timeout=30
    ).json()
    before = {
        "todos": requests.get(url + "/todos", timeout=30).json(),
        "people": requests.get(url + "/people", timeout=30).json(),
    }
    calls = [
        ("POST", "/todos", {"text": "new"}),
        ("PATCH", f"/todos/{todo['id']}", {"text": "changed"}),
        ("PUT", f"/todos/{todo['id']}", {"text": "replaced"}),
        ("DELETE", f"/todos/{todo['id']}", None),
        ("PATCH", "/people?age[$gte]=0", {"name": "everyone"}),
        ("DELETE", "/people?age[$gte]=0", None),
    ]
    with writers_locked_out(deployment.database_url):
        # Readers go on while writers wait.
        assert requests.get(f"{url}/todos/{todo['id']}", timeout=30).status_code == 200
        for method, path, data in calls:
            assert_unavailable(requests.request(method, url + path, json=data, timeout=30))

    assert requests.get(url + "/todos", timeout=30).json() == before["todos"]
    assert requests.get(url + "/people", timeout=30).json() == before["people"]
    assert len(people) == 2
    log = deployment.logs()
    for method, path, _ in calls:
        assert f"Database unavailable for {method} {path.split('?')[0]}" in log


@pytest.fixture
def remote(settings, url):
    settings.DJANGO_SERVICES = {
        "REMOTES": {"fixture": {"BASE_URL": url, "RETRIES": {"TOTAL": 3, "JITTER": 0}}}
    }
    yield remotes["fixture"]
    remotes.close_all()


def release_later(lock: contextlib.ExitStack, seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lock.close)
    timer.start()
    return timer


def test_a_remote_with_retries_sends_an_idempotent_call_again_until_it_succeeds(
    remote, url, deployment
):
    todos = remote.service("todos")
    todo = todos.create({"text": "before"})
    lock = contextlib.ExitStack()
    lock.enter_context(writers_locked_out(deployment.database_url))
    timer = release_later(lock, 1.5)  # after the first attempt's 503, before the retry
    try:
        replaced = todos.update(todo["id"], {"text": "after"})
    finally:
        timer.join()
    assert replaced == {"id": todo["id"], "text": "after", "complete": False}
    assert todos.get(todo["id"]) == replaced
    assert f"Database unavailable for PUT /todos/{todo['id']}" in deployment.logs()


def test_a_remote_does_not_send_a_patch_again(remote, url, deployment):
    todos = remote.service("todos")
    todo = todos.create({"text": "before"})
    with writers_locked_out(deployment.database_url), pytest.raises(Unavailable) as caught:
        todos.patch(todo["id"], {"text": "after"})
    assert caught.value.code == 503
    assert todos.get(todo["id"]) == todo


@pytest.mark.skipif(not POSTGRES, reason="ends a PostgreSQL server process")
def test_a_connection_lost_in_the_middle_of_a_write_answers_503(url, deployment):
    import psycopg

    todo = requests.post(url + "/todos", json={"text": "kept"}, timeout=30).json()
    answers: list[requests.Response] = []
    with writers_locked_out(deployment.database_url):
        writer = threading.Thread(
            target=lambda: answers.append(
                requests.patch(f"{url}/todos/{todo['id']}", json={"text": "lost"}, timeout=30)
            )
        )
        writer.start()
        with psycopg.connect(deployment.database_url, autocommit=True) as admin:
            for _ in range(100):
                waiting = admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                ).fetchall()
                if waiting:
                    break
                threading.Event().wait(0.005)
            assert waiting, "the write never waited for the lock"
            admin.execute("SELECT pg_terminate_backend(%s)", [waiting[0][0]])
        writer.join()
    assert_unavailable(answers[0])
    assert requests.get(f"{url}/todos/{todo['id']}", timeout=30).json() == todo

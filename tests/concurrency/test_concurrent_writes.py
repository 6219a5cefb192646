"""
Writes at the same time over real HTTP: two server processes on one database, real threads.

Patches of different fields of one record must all stay (none overwrites another's column
with the value it read), two patches from the same read version with `If-Match` must not both
win, and no answer is a 500.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.server.conformance_servers import Deployment, conformance_servers
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture

TRIALS = 30
ROUNDS = 50
MULTI_RECORDS = 200
MULTI_TRIALS = 10


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    log_dir: Path = tmp_path_factory.mktemp("concurrent-writes")
    with conformance_servers(log_dir, count=2, label="writes") as started:
        yield started


@pytest.fixture
def urls(servers: Deployment) -> list[str]:
    requests.post(servers.urls[0] + "/__reset", timeout=30).raise_for_status()
    return servers.urls


def run_together(*jobs: Callable[[], Any]) -> list[Any]:
    """Run each job in its own thread, started at the same moment; return their results."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = jobs[index]()
        except Exception as exc:  # reported by the test, not lost in the thread
            results[index] = exc

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_simultaneous_patches_of_different_fields_both_stay(urls, servers):
    first, second = requests.Session(), requests.Session()
    lost = []
    statuses = []
    for trial in range(TRIALS):
        todo = first.post(urls[0] + "/todos", json={"text": "new"}, timeout=30).json()
        path = f"/todos/{todo['id']}"
        text, done = run_together(
            lambda path=path, trial=trial: first.patch(
                urls[0] + path, json={"text": f"text {trial}"}, timeout=30
            ),
            lambda path=path: second.patch(urls[1] + path, json={"complete": True}, timeout=30),
        )
        statuses += [getattr(text, "status_code", text), getattr(done, "status_code", done)]
        stored = first.get(urls[0] + path, timeout=30).json()
        if stored != {"id": todo["id"], "text": f"text {trial}", "complete": True}:
            lost.append(stored)
    assert statuses == [200] * 2 * TRIALS, servers.logs()
    assert lost == []


def test_writers_of_three_fields_keep_every_last_value(urls, servers):
    person = requests.post(urls[0] + "/people", json={"name": "start", "age": 0}, timeout=30)
    path = "/people/{}".format(person.json()["id"])
    fields: dict[str, Callable[[int], Any]] = {
        "name": lambda round: f"name {round}",
        "age": lambda round: round,
        "created": lambda round: round % 2 == 0,
    }

    def writer(index: int, field: str) -> Callable[[], list[int]]:
        def write() -> list[int]:
            session = requests.Session()
            url = urls[index % len(urls)] + path
            return [
                session.patch(url, json={field: fields[field](round)}, timeout=30).status_code
                for round in range(ROUNDS)
            ]

        return write

    results = run_together(*(writer(index, field) for index, field in enumerate(fields)))
    assert results == [[200] * ROUNDS] * len(fields), servers.logs()
    stored = requests.get(urls[0] + path, timeout=30).json()
    last = ROUNDS - 1
    assert stored == {"id": stored["id"], **{name: value(last) for name, value in fields.items()}}


def test_multi_patches_of_the_same_records_in_opposite_orders_do_not_deadlock(urls, servers):
    sessions = [requests.Session(), requests.Session()]
    people = [{"name": "person", "age": n} for n in range(MULTI_RECORDS)]
    sessions[0].post(urls[0] + "/people", json=people, timeout=30).raise_for_status()

    def patch(index: int, order: int, trial: int) -> int:
        query = f"age[$gte]=0&$sort[age]={order}"
        data = {"name": f"trial {trial} by {index}"}
        return sessions[index].patch(f"{urls[index]}/people?{query}", json=data, timeout=30)

    statuses = []
    for trial in range(MULTI_TRIALS):
        results = run_together(
            *(functools.partial(patch, index, order, trial) for index, order in enumerate((1, -1)))
        )
        statuses += [getattr(result, "status_code", result) for result in results]
    assert statuses == [200] * 2 * MULTI_TRIALS, servers.logs()
    names = {person["name"] for person in sessions[0].get(urls[0] + "/people", timeout=30).json()}
    assert len(names) == 1  # one patch wrote every record after the other


def test_two_patches_from_the_same_version_one_wins_the_other_is_412(urls, servers):
    first, second = requests.Session(), requests.Session()
    outcomes = []
    for trial in range(TRIALS):
        todo = first.post(urls[0] + "/todos", json={"text": "new"}, timeout=30).json()
        path = f"/todos/{todo['id']}"
        etag = first.get(urls[0] + path, timeout=30).headers["ETag"]
        text, done = run_together(
            lambda path=path, trial=trial, etag=etag: first.patch(
                urls[0] + path,
                json={"text": f"text {trial}"},
                headers={"If-Match": etag},
                timeout=30,
            ),
            lambda path=path, etag=etag: second.patch(
                urls[1] + path, json={"complete": True}, headers={"If-Match": etag}, timeout=30
            ),
        )
        statuses = sorted(getattr(answer, "status_code", answer) for answer in (text, done))
        winner = text if text.status_code == 200 else done
        stored = first.get(urls[0] + path, timeout=30)
        # The one write that stayed is the winner's, and its answer's ETag is the record's.
        outcomes.append(
            (
                statuses,
                stored.json() == winner.json(),
                stored.headers["ETag"] == winner.headers["ETag"],
            )
        )
    assert outcomes == [([200, 412], True, True)] * TRIALS, servers.logs()

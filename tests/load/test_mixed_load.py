"""
16 clients mixing reads and writes for 10 s, over real HTTP, against two server processes on
one database: no answer is a 500 (or above), and no write is lost.

Each client creates, reads, patches, replaces and removes records of its own (todos and
people), completes other clients' todos, signs users up, and patches or removes many people
at once with a query; the multi patches change one field of the most recent people, most of
them other clients', so rows are contended. Only its owner changes a record's checked fields:
whenever a client reads one of its records, and for every record at the end, the record must
hold exactly what its owner last wrote, and every record it removed must be gone.

    CONCURRENT_LOAD_SECONDS=20 pytest tests/load/test_mixed_load.py -s    # a longer run
"""

from __future__ import annotations

import collections
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.server.conformance_servers import Deployment, conformance_servers
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture

CLIENTS = 16
SECONDS = float(os.environ.get("CONCURRENT_LOAD_SECONDS", "10"))

#: The latest todo of each client (the one it patches most), by client index.
LATEST_TODOS: dict[int, int] = {}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    log_dir: Path = tmp_path_factory.mktemp("mixed-load")
    with conformance_servers(log_dir, count=2, label="load") as started:
        yield started


@dataclass
class Client:
    """One client's session, what it expects the database to hold, and what it was answered."""

    index: int
    url: str
    session: requests.Session = field(default_factory=requests.Session)
    todos: dict[int, dict[str, Any]] = field(default_factory=dict)
    people: dict[int, dict[str, Any]] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    statuses: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    counter: int = 0

    def call(self, method: str, path: str, expected: int, **kwargs: Any) -> Any:
        response = self.session.request(method, self.url + path, timeout=60, **kwargs)
        self.statuses[response.status_code] += 1
        if response.status_code != expected:
            self.failures.append(f"{method} {path} -> {response.status_code} {response.text}")
            return None
        return response.json()

    def next(self) -> int:
        self.counter += 1
        return self.counter

    # The steps ----------------------------------------------------------------------------

    def create_todo(self) -> None:
        text = f"c{self.index} todo {self.next()}"
        todo = self.call("POST", "/todos", 201, json={"text": text})
        if todo is not None:
            self.todos[todo["id"]] = {"text": text}
            LATEST_TODOS[self.index] = todo["id"]

    def patch_todo(self) -> None:
        if not self.todos:
            return self.create_todo()
        latest = LATEST_TODOS.get(self.index)
        id = latest if latest in self.todos else random.choice(list(self.todos))
        change = {"text": f"c{self.index} text {self.next()}"}
        if self.call("PATCH", f"/todos/{id}", 200, json=change) is not None:
            self.todos[id].update(change)

    def complete_others(self) -> None:
        # Another client's latest todo, maybe removed meanwhile: only `complete`, which no
        # client checks, so a patch that wrote the text back would lose its owner's write.
        others = [id for index, id in LATEST_TODOS.items() if index != self.index]
        if not others:
            return self.create_todo()
        id = random.choice(others)
        response = self.session.patch(
            f"{self.url}/todos/{id}", json={"complete": self.next() % 2 == 0}, timeout=60
        )
        self.statuses[response.status_code] += 1
        if response.status_code not in (200, 404):
            self.failures.append(f"PATCH /todos/{id} -> {response.status_code} {response.text}")

    def remove_todo(self) -> None:
        if len(self.todos) < 3:
            return self.create_todo()
        id = random.choice(list(self.todos))
        if self.call("DELETE", f"/todos/{id}", 200) is not None:
            del self.todos[id]
            self.removed.append(f"/todos/{id}")

    def read(self) -> None:
        kind, records = random.choice([("todos", self.todos), ("people", self.people)])
        if not records or random.random() < 0.2:
            self.call("GET", "/people-paginated?$limit=10&$sort[id]=-1", 200)
            return
        id = random.choice(list(records))
        stored = self.call("GET", f"/{kind}/{id}", 200)
        expected = records[id]
        if stored is not None and {key: stored.get(key) for key in expected} != expected:
            self.lost.append(f"/{kind}/{id}: {stored} instead of {expected}")
            records[id] = {key: stored.get(key) for key in expected}  # counted once

    def create_person(self) -> None:
        name = f"c{self.index} person {self.next()}"
        person = self.call("POST", "/people", 201, json={"name": name, "age": 1})
        if person is not None:
            self.people[person["id"]] = {"name": name, "age": 1}

    def change_person(self) -> None:
        if not self.people:
            return self.create_person()
        id = random.choice(list(self.people))
        if random.random() < 0.5:
            change = {"age": self.next()}
            if self.call("PATCH", f"/people/{id}", 200, json=change) is not None:
                self.people[id].update(change)
        else:
            record = {"name": f"c{self.index} person {self.next()}", "age": self.next()}
            if self.call("PUT", f"/people/{id}", 200, json=record) is not None:
                self.people[id] = record

    def patch_neighbours(self) -> None:
        # The people of recent ids, most of them other clients': only `created`, which no
        # client checks, so a patch that wrote back the other columns would lose their writes.
        if not self.people:
            return self.create_person()
        first = max(max(self.people) - random.randrange(60), 1)
        order = random.choice([1, -1])  # rows in either order: locks must not deadlock
        query = f"id[$gte]={first}&id[$lt]={first + 40}&$sort[id]={order}"
        self.call("PATCH", f"/people?{query}", 200, json={"created": self.next() % 2 == 0})

    def remove_many(self) -> None:
        name = f"c{self.index} leaving {self.next()}"
        for _ in range(2):
            self.call("POST", "/people", 201, json={"name": name, "age": 0})
        gone = self.call("DELETE", f"/people?name={name}", 200)
        if gone is not None and len(gone) != 2:
            self.failures.append(f"multi remove of {name} removed {len(gone)} records")

    def sign_up(self) -> None:
        email = f"c{self.index}-{self.next()}@example.com"
        self.call("POST", "/users", 201, json={"email": email, "password": "a fine password"})

    def run(self, deadline: float) -> None:
        steps = [
            (self.create_todo, 2),
            (self.patch_todo, 6),
            (self.complete_others, 6),
            (self.remove_todo, 1),
            (self.read, 6),
            (self.create_person, 2),
            (self.change_person, 4),
            (self.patch_neighbours, 3),
            (self.remove_many, 1),
            (self.sign_up, 1),
        ]
        functions, weights = zip(*steps, strict=True)
        while time.monotonic() < deadline:
            try:
                random.choices(functions, weights)[0]()
            except requests.RequestException as exc:
                self.failures.append(f"{type(exc).__name__}: {exc}")

    def lost_writes(self, check: requests.Session) -> list[str]:
        lost = list(self.lost)
        for kind, records in (("todos", self.todos), ("people", self.people)):
            for id, expected in records.items():
                stored = check.get(f"{self.url}/{kind}/{id}", timeout=60).json()
                if {key: stored.get(key) for key in expected} != expected:
                    lost.append(f"/{kind}/{id}: {stored} instead of {expected}")
        for path in self.removed:
            status = check.get(self.url + path, timeout=60).status_code
            if status != 404:
                lost.append(f"{path} was removed, but answers {status}")
        return lost


def test_clients_mixing_reads_and_writes_get_no_server_error_and_lose_nothing(servers):
    urls = servers.urls
    requests.post(urls[0] + "/__reset", timeout=30).raise_for_status()
    LATEST_TODOS.clear()
    clients = [Client(index, urls[index % len(urls)]) for index in range(CLIENTS)]
    deadline = time.monotonic() + SECONDS
    threads = [threading.Thread(target=client.run, args=(deadline,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sum((client.statuses for client in clients), collections.Counter())
    check = requests.Session()
    lost = [entry for client in clients for entry in client.lost_writes(check)]
    failures = [entry for client in clients for entry in client.failures]
    errors = sum(count for status, count in statuses.items() if status >= 500)
    summary = (
        f"{CLIENTS} clients, {SECONDS:g} s: {sum(statuses.values())} requests "
        f"{dict(sorted(statuses.items()))}, {errors} answers >= 500, "
        f"{sum(len(c.todos) + len(c.people) + len(c.removed) for c in clients)} records "
        f"checked, {len(lost)} lost writes"
    )
    print(summary)
    assert errors == 0, f"{summary}\n{failures[:10]}\n{servers.logs()[-5000:]}"
    assert failures == [], f"{summary}\n{failures[:10]}"
    assert lost == [], f"{summary}\n{lost[:10]}"

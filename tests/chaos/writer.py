"""
A writer creating and patching people over REST at a steady rate, in a thread, whatever
happens to the servers.

    writer = Writer([server.url], rate=20).start()
    writer.wait_for(20)     # 20 more writes answered
    writer.stop()

Each tick sends one write to the next server in turn: a new person (`age` 0), or every other
tick a patch of an earlier one to the next age (the newest record and the oldest in turn), so
that a record's events have an order to keep, also when the write after a create goes to
another process. A write that gets no answer (the server died, its database connection
ended) may or may not have committed: its record is never patched again, and what committed
is read from the database at the end (`Deployment.records()`), each person then owing its
clients one `created` and one `patched` for each age up to its own.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence

import requests

from django_services import clock
from tests.waiting import eventually

#: Seconds a write may take before it counts as unanswered.
WRITE_TIMEOUT = 5.0


class Writer:
    """Writes to `urls` (servers' base URLs, in turn), `rate` writes a second."""

    def __init__(self, urls: Sequence[str], rate: float = 20.0) -> None:
        self.urls = list(urls)
        self.interval = 1.0 / rate
        #: Writes answered with success, and those without an answer or with an error.
        self.answered = 0
        self.failed = 0
        #: Records whose every write was answered: id -> age, the oldest patched next.
        self._clean: dict[int, int] = {}
        self._stopping = threading.Event()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="chaos-writer", daemon=True)
        self._numbers = itertools.count()

    def start(self) -> Writer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop writing; return once the write under way is done."""
        self._stopping.set()
        self._thread.join(WRITE_TIMEOUT * 2)

    def wait_for(self, writes: int, timeout: float = 60.0) -> None:
        """Wait until `writes` more writes than now have been answered with success."""
        with self._changed:
            goal = self.answered + writes
        eventually(lambda: self.answered >= goal, timeout, message=f"{writes} writes answered")

    def _run(self) -> None:
        session = requests.Session()
        try:
            for tick in itertools.count():
                if self._stopping.is_set():
                    return
                self._write(session, self.urls[tick % len(self.urls)], tick)
                clock.current().wait(self._stopping, self.interval)
        finally:
            session.close()

    def _write(self, session: requests.Session, url: str, tick: int) -> None:
        patched = None
        if tick % 2 and self._clean:
            # The newest record (just created, by another server when there are two), or the
            # oldest (patched the longest ago).
            patched = next(reversed(self._clean) if tick % 4 == 1 else iter(self._clean))
        try:
            if patched is None:
                number = next(self._numbers)
                response = session.post(
                    f"{url}/people", json={"name": f"w{number}", "age": 0}, timeout=WRITE_TIMEOUT
                )
            else:
                age = self._clean.pop(patched) + 1
                response = session.patch(
                    f"{url}/people/{patched}", json={"age": age}, timeout=WRITE_TIMEOUT
                )
        except requests.RequestException:
            self._count(ok=False)
            return
        if response.status_code >= 300:
            self._count(ok=False)
            return
        record = response.json()
        # To the back of the line (a patched record was taken out of it).
        self._clean[record["id"]] = record["age"]
        self._count(ok=True)

    def _count(self, *, ok: bool) -> None:
        with self._changed:
            if ok:
                self.answered += 1
            else:
                self.failed += 1

"""
Proof that a test logs no traceback: a module marks its tests

    pytestmark = pytest.mark.usefixtures("no_tracebacks")

and each test fails if a record with `exc_info` (a traceback) was logged while it ran, by the
package, python-socketio, python-engineio, uvicorn, asyncio or `django.request`, in the tests'
process (servers in threads included, and records no handler shows); at the end of the
module, its last test fails if a server process started under the session's temporary
directory (`ProcessServer`, whose output goes to a `.log` file there) printed a traceback
meanwhile.

A traceback found is a bug to fix where it is logged, not a record to silence.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "WATCHED",
    "TracebackRecorder",
    "logged_tracebacks",
    "no_tracebacks",
    "process_tracebacks",
    "server_logs",
]

#: The loggers (and their children) whose tracebacks fail a test.
WATCHED = ("django_services", "socketio", "engineio", "uvicorn", "asyncio", "django.request")


class TracebackRecorder:
    """
    Keeps the records of the watched loggers that carry a traceback, as they are made: a
    root-logger handler would miss uvicorn's, which do not propagate, and whose handlers each
    new uvicorn server configures again.
    """

    def __init__(self) -> None:
        self.records: list[logging.LogRecord] = []
        self.factory = logging.getLogRecordFactory()

    def __enter__(self) -> TracebackRecorder:
        logging.setLogRecordFactory(self._make)
        return self

    def __exit__(self, *exc_info: object) -> None:
        logging.setLogRecordFactory(self.factory)

    def _make(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.factory(*args, **kwargs)
        name = record.name
        watched = any(name == prefix or name.startswith(prefix + ".") for prefix in WATCHED)
        if watched and record.exc_info and record.exc_info[0] is not None:
            self.records.append(record)
        return record

    def report(self) -> str:
        """The records kept, with their tracebacks."""
        formatter = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return "\n\n".join(formatter.format(record) for record in self.records)


def server_logs(root: Path) -> dict[Path, int]:
    """The size of every server log under `root`."""
    return {path: path.stat().st_size for path in root.rglob("*.log") if path.is_file()}


def logged_tracebacks(root: Path, before: dict[Path, int]) -> list[str]:
    """What each server log under `root` got since `before` (`server_logs`), if a traceback."""
    found = []
    for path in sorted(server_logs(root)):
        with path.open("rb") as log:
            log.seek(before.get(path, 0))
            text = log.read().decode(errors="replace")
        if "Traceback" in text:
            found.append(f"--- {path.name}\n{text}")
    return found


@pytest.fixture(scope="module")
def process_tracebacks(tmp_path_factory) -> Iterator[None]:
    """Fails the module's last test if a server process logged a traceback during the module."""
    root = tmp_path_factory.getbasetemp()
    before = server_logs(root)
    yield
    found = logged_tracebacks(root, before)
    if found:
        pytest.fail("A server process logged a traceback:\n" + "\n".join(found), pytrace=False)


@pytest.fixture
def no_tracebacks(process_tracebacks) -> Iterator[None]:
    """Fails the test if a watched logger logged a traceback while it ran."""
    with TracebackRecorder() as recorder:
        yield
    if recorder.records:
        pytest.fail("A traceback was logged:\n" + recorder.report(), pytrace=False)

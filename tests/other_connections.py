"""
Work done on another connection, as another request or worker thread would: a transaction held
open with its locks, for tests of what meets them, and a call made on a thread of its own.

    with transaction_held(lambda: Person.objects.create(name="uncommitted")):
        ...                                   # the row is written, not committed
    # committed here

    async with table_write_held("testapp_note"):
        ...                                   # SQLite's shared cache fails reads of the table

    answer = in_a_thread(count_notes)         # its answer, or its error raised here

The work runs on a thread of its own, so on a connection of its own, which is closed after.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from django.db import connection, connections, transaction


class HeldTransaction:
    """`work()` run in a transaction of another thread, committed once `release()` is called."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work
        self._done = threading.Event()
        self._release = threading.Event()
        self._failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._hold, name="held-transaction")

    def start(self, timeout: float = 10) -> None:
        """Start the work; return once it is done, its transaction still open."""
        self._thread.start()
        assert self._done.wait(timeout), "the held transaction's work did not finish"
        if self._failure:
            raise self._failure[0]

    def release(self, timeout: float = 10) -> None:
        """Commit the transaction and wait for its thread to end."""
        self._release.set()
        self._thread.join(timeout)

    def _hold(self) -> None:
        try:
            with transaction.atomic():
                self.work()
                self._done.set()
                self._release.wait(30)
        except BaseException as exc:
            self._failure.append(exc)
            self._done.set()
        finally:
            connections.close_all()


@contextlib.contextmanager
def transaction_held(work: Callable[[], Any]) -> Iterator[HeldTransaction]:
    """While open, `work()`'s transaction is held open by another thread; committed on exit."""
    held = HeldTransaction(work)
    held.start()
    try:
        yield held
    finally:
        held.release()


@contextlib.asynccontextmanager
async def transaction_held_async(work: Callable[[], Any]) -> AsyncIterator[HeldTransaction]:
    """`transaction_held` for a coroutine: its waits do not block the event loop."""
    held = HeldTransaction(work)
    await asyncio.to_thread(held.start)
    try:
        yield held
    finally:
        await asyncio.to_thread(held.release)


def write_to(table: str) -> Callable[[], None]:
    """A write to every row of `table` that changes nothing, and takes its write lock."""

    def write() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET id = id")

    return write


def table_write_held(table: str) -> contextlib.AbstractAsyncContextManager[HeldTransaction]:
    """While open, another thread holds a write to `table`, uncommitted."""
    return transaction_held_async(write_to(table))


def started_in_a_thread(
    function: Callable[..., Any], *args: Any
) -> tuple[threading.Thread, list[Any]]:
    """`function(*args)` started on a thread of its own; the list gets its answer or error."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(function(*args))
        except Exception as exc:
            outcome.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def in_a_thread(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` on a thread of its own: its answer, or its error raised here."""
    thread, outcome = started_in_a_thread(function, *args)
    thread.join(30)
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return outcome[0]

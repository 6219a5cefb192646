"""
Locks by name, one per process, held by threads and asyncio tasks alike.

    process_locks.acquire("billing-token")            # a thread waits
    await process_locks.aacquire("billing-token")     # a task waits, its loop keeps running
    process_locks.release("billing-token")

A flow holds one with the `Acquire(name)` step (see `client/_flow.py`), so that the callers of
a process that find no token wait for the one of them logging in, instead of each logging in.
"""

from __future__ import annotations

import asyncio
import os
import threading

__all__ = ["ProcessLocks", "process_locks"]

# How long an asyncio task waits between two tries, at first and at most (seconds).
_FIRST_DELAY = 0.001
_MAX_DELAY = 0.02


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class ProcessLocks:
    """
    One `threading.Lock` per name, made on first use and dropped when no caller holds or
    awaits it.

    Threads block on the lock. Asyncio tasks try it without blocking and sleep between tries
    (from 1 to 20 ms): a task must not block its event loop, and asyncio has no way to await a
    lock that threads also hold. Either may release a lock the other acquired.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._entries: dict[str, _Entry] = {}

    def acquire(self, name: str) -> None:
        """Wait in this thread until the lock `name` is this caller's."""
        entry = self._enter(name)
        try:
            entry.lock.acquire()
        except BaseException:
            self._leave(name)
            raise

    async def aacquire(self, name: str) -> None:
        """Wait in this task, without blocking the event loop, until the lock `name` is its."""
        entry = self._enter(name)
        delay = _FIRST_DELAY
        try:
            while not entry.lock.acquire(blocking=False):
                await asyncio.sleep(delay)
                delay = min(delay * 2, _MAX_DELAY)
        except BaseException:
            # Cancelled while waiting: the lock was never this task's.
            self._leave(name)
            raise

    def release(self, name: str) -> None:
        """Release the lock `name`, which the caller holds."""
        with self._guard:
            entry = self._entries[name]
            entry.lock.release()
            self._drop(name, entry)

    def _enter(self, name: str) -> _Entry:
        with self._guard:
            entry = self._entries.get(name)
            if entry is None:
                entry = self._entries[name] = _Entry()
            entry.users += 1
            return entry

    def _leave(self, name: str) -> None:
        with self._guard:
            self._drop(name, self._entries[name])

    def _drop(self, name: str, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._entries[name]

    def _reset(self) -> None:
        # A child process starts with one thread: the locks other threads of the parent held
        # at the fork would never be released in it.
        self._guard = threading.Lock()
        self._entries = {}


#: The locks of this process.
process_locks = ProcessLocks()

if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=process_locks._reset)

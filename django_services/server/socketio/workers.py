"""
The threads socket calls run in, shared fairly between connections.

    workers = CallWorkers(threads=12)          # 3 calls of one connection run at once
    result = await workers.run(slots, function, *args)
    await workers.run_in_sessions_thread(sessions.save, pid, connection, channels)

Socket calls run Django code (the ORM, password hashing), each in a thread of a pool of the
server's own, sized for them (not the event loop's default executor, which other code shares).
One connection may run at most a quarter of the pool at once (`per_connection`): its other
calls wait in its own queue, not in the pool's, so that one socket with many expensive calls
in flight (sign-ups hashing passwords) leaves the other sockets' calls threads to run in.

The sessions of connection state recovery are written by one thread of their own, in the order
their changes were made: a connection that leaves right after it connected has its session
forgotten after it was stored, never before. One thread also means one database connection
holding the sessions table's pages in its cache (with twelve, on SQLite, each held its own:
2.3 KiB more per socket), and no threads of the pool contending for SQLite's write lock.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import sync_to_async

__all__ = ["CallWorkers", "default_threads"]

_R = TypeVar("_R")


def default_threads() -> int:
    """Four threads a core and four more (calls wait on the database too), at most 32."""
    return min(32, 4 * (os.cpu_count() or 1) + 4)


class CallWorkers:
    """A thread pool for socket calls, and the share of it one connection may hold."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads if threads is not None else default_threads()
        if self.threads < 1:
            raise ValueError("A socket server needs at least one thread for its calls")
        #: The calls of one connection that may run at once.
        self.per_connection = max(1, self.threads // 4)
        self.executor = ThreadPoolExecutor(self.threads, thread_name_prefix="socketio-call")
        self.sessions_executor = ThreadPoolExecutor(1, thread_name_prefix="socketio-sessions")

    def slots(self) -> asyncio.Semaphore:
        """The running-call slots of a new connection."""
        return asyncio.Semaphore(self.per_connection)

    async def run(
        self, slots: asyncio.Semaphore | None, function: Callable[..., _R], *args: Any
    ) -> _R:
        """Run `function(*args)` in the pool, once one of `slots` is free (any time if None)."""
        call = sync_to_async(function, thread_sensitive=False, executor=self.executor)
        if slots is None:
            return await call(*args)
        async with slots:
            return await call(*args)

    async def run_in_sessions_thread(self, function: Callable[..., _R], *args: Any) -> _R:
        """Run `function(*args)` in the one thread that writes the sessions."""
        call = sync_to_async(function, thread_sensitive=False, executor=self.sessions_executor)
        return await call(*args)

    def shutdown(self) -> None:
        """
        Stop the pool: calls not started are dropped, running ones finish. The sessions
        already queued are still written, in order (the process exits once they are): a
        socket the server closes as it stops is recovered by the next process.
        """
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.sessions_executor.shutdown(wait=False)

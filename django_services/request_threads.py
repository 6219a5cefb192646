"""
The fixed threads an ASGI server runs Django's synchronous request code in.

    threads = RequestThreads(12)
    executor = await threads.acquire()     # one thread, this request's alone until released
    ...
    threads.release(executor)

Django's ASGI handler runs the synchronous parts of each request (signals, sync middleware,
the view) in a thread of the request's own, created for it and ended after it. Database
connections are per thread, so each request opens a connection and drops it, whatever
`CONN_MAX_AGE` says, and pays for a new thread. Here a request borrows one of a fixed set of
threads instead: a connection stays open in its thread between requests, under the rules
`CONN_MAX_AGE` and `CONN_HEALTH_CHECKS` set (Django's `request_started` and
`request_finished` still run `close_old_connections` in the request's thread), and no thread
is created per request. A request waits for a thread when every one is busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections import deque
from concurrent.futures import Executor, ThreadPoolExecutor

__all__ = ["RequestThreads", "default_request_threads"]


def default_request_threads() -> int:
    """Four threads a core and four more (requests wait on the database too), at most 32."""
    return min(32, 4 * (os.cpu_count() or 1) + 4)


class RequestThreads:
    """A fixed set of single-thread executors, each lent to one request at a time."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = default_request_threads() if threads is None else threads
        if self.threads < 1:
            raise ValueError("RequestThreads needs at least one thread")
        self._executors = [
            ThreadPoolExecutor(1, thread_name_prefix=f"django-request-{index}")
            for index in range(self.threads)
        ]
        self._idle: list[ThreadPoolExecutor] = list(reversed(self._executors))
        # Requests waiting for a thread, first come first served; a request may come from
        # any event loop, so a waiter is woken through its own loop.
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[Executor]]] = deque()
        self._lock = threading.Lock()
        #: Whether `close()` was called: no request may borrow a thread any more.
        self.closed = False

    async def acquire(self) -> Executor:
        """A thread of the set (an executor running one call at a time), once one is free."""
        with self._lock:
            if self.closed:
                raise RuntimeError("RequestThreads is closed")
            if self._idle:
                return self._idle.pop()
            loop = asyncio.get_running_loop()
            waiter: asyncio.Future[Executor] = loop.create_future()
            self._waiters.append((loop, waiter))
        return await waiter

    def release(self, executor: Executor) -> None:
        """Give a thread back: to the longest-waiting request, or to the idle ones."""
        with self._lock:
            while self._waiters:
                loop, waiter = self._waiters.popleft()
                if not waiter.done() and not loop.is_closed():
                    loop.call_soon_threadsafe(self._hand_over, waiter, executor)
                    return
            assert isinstance(executor, ThreadPoolExecutor)
            self._idle.append(executor)

    def _hand_over(self, waiter: asyncio.Future[Executor], executor: Executor) -> None:
        # A waiter cancelled between release() and now does not keep the thread.
        if waiter.done():
            self.release(executor)
        else:
            waiter.set_result(executor)

    def close(self) -> None:
        """
        Close the database connections each thread holds, then end the threads. Requests
        running finish first; later ones cannot acquire a thread.
        """
        with self._lock:
            self.closed = True
        from django.db import connections

        for executor in self._executors:
            with contextlib.suppress(RuntimeError):  # already shut down
                executor.submit(connections.close_all).result()
            executor.shutdown(wait=True)

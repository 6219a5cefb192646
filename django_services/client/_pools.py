"""
The connections of a remote: one per thread, or one per event loop for async connections.

    pool = ThreadPool(open_app)        # or LoopPool(open_app, misuse="...")
    pool.get()                         # the app of this thread (loop), opened on first use
    pool.close()                       # close every connection; the next get() opens anew

A thread's connection is closed when the thread ends (its thread-locals are torn down); a
loop's when the loop shuts down its async generators (`asyncio.run()` does). `close()` closes
them all, an async one in its own event loop: at once when the loop is idle, scheduled when it
runs, only forgotten when it is closed.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import itertools
import sys
import threading
import weakref
from collections.abc import AsyncGenerator, Callable, Coroutine
from typing import Any, Generic, TypeVar

from .app import App
from .transports.base import BaseTransport

__all__ = ["LoopPool", "Pool", "ThreadPool"]

A = TypeVar("A", bound=App)


class Pool(abc.ABC, Generic[A]):
    """The apps of a remote, each with its connection; `open` makes a new one."""

    def __init__(self, open: Callable[[], A]) -> None:
        self.open = open
        self._lock = threading.Lock()

    @abc.abstractmethod
    def get(self) -> A:
        """The app of the caller's thread or event loop, opened on first use."""

    @abc.abstractmethod
    def close(self) -> None:
        """Close every connection; closing again does nothing."""

    async def aclose(self) -> None:
        """Close every connection, that of the running event loop before returning."""
        self.close()


class ThreadPool(Pool[A]):
    """One app per thread, its connection closed when the thread ends."""

    def __init__(self, open: Callable[[], A]) -> None:
        super().__init__(open)
        # The app of each thread in a thread-local, with a `_ThreadHold` whose finalizer closes
        # the connection when the thread's locals are torn down, as the thread ends. `close()`
        # calls the finalizers of the threads still running, kept here by token.
        self._local = threading.local()
        self._threads: dict[int, weakref.finalize] = {}
        self._tokens = itertools.count()

    def get(self) -> A:
        try:
            return self._local.app
        except AttributeError:
            return self._open_in_thread()

    def close(self) -> None:
        with self._lock:
            # The threads' next calls find a new thread-local, and open new connections.
            local, self._local = self._local, threading.local()
            finalizers = list(self._threads.values())
        for finalizer in finalizers:
            finalizer()
        del local  # the threads' holds go with it; their finalizers have run

    def _open_in_thread(self) -> A:
        app = self.open()
        hold = _ThreadHold()
        token = next(self._tokens)
        finalizer = weakref.finalize(
            hold, _close_thread_connection, self._threads, token, app.connection
        )
        with self._lock:
            self._threads[token] = finalizer
            local = self._local
            local.app = app
            local.hold = hold
        return app


class LoopPool(Pool[A]):
    """
    One app per event loop, its connection closed when the loop shuts down.

    `misuse` is the message of the `RuntimeError` raised when no event loop is running.
    """

    def __init__(self, open: Callable[[], A], *, misuse: str) -> None:
        super().__init__(open)
        self.misuse = misuse
        # The app of each event loop, and the async generator that closes its connection when
        # the loop shuts down its async generators.
        self._loops: dict[asyncio.AbstractEventLoop, A] = {}
        self._closers: dict[asyncio.AbstractEventLoop, AsyncGenerator[None, None]] = {}

    def get(self) -> A:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(self.misuse) from None
        app = self._loops.get(loop)
        if app is None:
            app = self._open_in_loop(loop)
        return app

    def close(self) -> None:
        with self._lock:
            loops = [(loop, self._take(loop)) for loop in list(self._loops)]
        for loop, (app, closer) in loops:
            _finish(closer)
            if app is not None and app.connection is not None:
                _close_in_loop(loop, app.connection.aclose())

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            app, closer = self._take(loop)
        _finish(closer)
        if app is not None and app.connection is not None:
            await app.connection.aclose()
        self.close()

    def _open_in_loop(self, loop: asyncio.AbstractEventLoop) -> A:
        with self._lock:
            app = self._loops.get(loop)
            if app is not None:
                return app
            # The connections of loops closed without shutting down can no longer be closed.
            forgotten = [self._take(old)[1] for old in list(self._loops) if old.is_closed()]
            app = self._loops[loop] = self.open()
            if sys.get_asyncgen_hooks().firstiter is not None:
                closer = self._close_at_shutdown(loop)
                # Started here, it is one of the loop's async generators, closed (and so the
                # connection with it) by `loop.shutdown_asyncgens()`.
                _step(closer.asend(None))
                self._closers[loop] = closer
        for old_closer in forgotten:
            _finish(old_closer)
        return app

    def _take(
        self, loop: asyncio.AbstractEventLoop
    ) -> tuple[A | None, AsyncGenerator[None, None] | None]:
        # With the lock held: whoever takes a loop's app closes its connection.
        return self._loops.pop(loop, None), self._closers.pop(loop, None)

    async def _close_at_shutdown(
        self, loop: asyncio.AbstractEventLoop
    ) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                app, _ = self._take(loop)
            # Not taken by `close()` or `aclose()`: the loop is shutting down its generators.
            if app is not None and app.connection is not None:
                await app.connection.aclose()


class _ThreadHold:
    """Kept in a thread's locals with the app: released with them as the thread ends."""

    __slots__ = ("__weakref__",)


def _close_thread_connection(
    threads: dict[int, Any], token: int, connection: BaseTransport | None
) -> None:
    threads.pop(token, None)
    if connection is not None:
        connection.close()


def _step(awaitable: Any) -> None:
    # Run a coroutine that does not suspend (nothing left to await) to its end.
    try:
        awaitable.send(None)
    except StopIteration:
        return
    raise AssertionError(f"{awaitable!r} suspended")  # pragma: no cover


def _finish(closer: AsyncGenerator[None, None] | None) -> None:
    """End a loop's closer whose app was taken: its `finally` has nothing left to await."""
    if closer is None:
        return
    # A closer that is running is being shut down by its loop, and finds nothing to close.
    with contextlib.suppress(RuntimeError):
        _step(closer.aclose())


#: Closings scheduled in running event loops, kept until they are done.
_closings: set[Any] = set()


def _close_in_loop(loop: asyncio.AbstractEventLoop, closing: Coroutine[Any, Any, None]) -> None:
    if loop.is_closed():
        closing.close()
        return
    if not loop.is_running():
        loop.run_until_complete(closing)
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    future: Any = (
        loop.create_task(closing)
        if running is loop
        else asyncio.run_coroutine_threadsafe(closing, loop)
    )
    _closings.add(future)
    future.add_done_callback(_closings.discard)

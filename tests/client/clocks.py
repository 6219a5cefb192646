"""A clock a test moves by hand: the client's flows and timers read it and wait on it."""

from __future__ import annotations

import asyncio
import threading
import time


class ManualClock:
    """
    Starts at the real time and moves only by `advance(seconds)`.

    A wait on it (a flow's sleep, a refresh timer) is recorded in `waits`. With `auto` (the
    default) a wait returns at once, after moving the clock by the time it asked for; without,
    it blocks until the test has moved the clock that far.
    """

    def __init__(self, now: float | None = None, *, auto: bool = True) -> None:
        self.time = time.time() if now is None else now
        self.auto = auto
        #: Every wait asked for, in seconds, in order.
        self.waits: list[float] = []
        self._moved = threading.Condition()
        self._tasks: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        with self._moved:
            self.time += seconds
            self._moved.notify_all()
            due = [task for task in self._tasks if task[0] <= self.time]
            self._tasks = [task for task in self._tasks if task[0] > self.time]
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)

    def sleep(self, seconds: float) -> None:
        self.wait(threading.Event(), seconds)

    def wait(self, event: threading.Event, seconds: float) -> bool:
        deadline = self._start(seconds)
        if self.auto:
            self.advance(seconds)
            return event.is_set()
        with self._moved:
            # A cancel sets the event without telling the condition: look again now and then.
            while not event.is_set() and self.time < deadline:
                self._moved.wait(0.05)
        return event.is_set()

    async def asleep(self, seconds: float) -> None:
        deadline = self._start(seconds)
        if self.auto:
            self.advance(seconds)
            return
        future = asyncio.get_running_loop().create_future()
        with self._moved:
            if self.time >= deadline:
                return
            self._tasks.append((deadline, asyncio.get_running_loop(), future))
        await future

    def _start(self, seconds: float) -> float:
        with self._moved:
            self.waits.append(seconds)
            return self.time + seconds


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)

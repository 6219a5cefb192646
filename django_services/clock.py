"""
The package's clock: every rule in which time passes reads the time here, and waits on it.

    from django_services import clock

    clock.time()        # seconds since the epoch: token `iat`/`exp`, refresh-token expiry
    clock.now()         # the same moment as a datetime, as Django stores it (`USE_TZ`)
    clock.monotonic()   # seconds for intervals: the socket.io call budget
    clock.alarm(when, callback)   # `callback()` on the running event loop at `clock.time()` `when`
    clock.current()     # the clock itself: the client's flows and refresh timers wait on it

A test moves time on instead of waiting for it to pass:

    with clock.replaced(clock.ManualClock()) as manual:
        manual.advance(61)          # a token issued now has expired a minute later

The clock is one object for the whole process (the threads of a live server included): a
manual clock's alarms ring when `advance()` reaches them, on the event loop that set them; its
waits (a client's retry delay, a refresh timer) are recorded in `waits` and end there too.
A client's transport, app or remote takes a clock of its own as `.clock`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _datetime
import threading
import time as _time
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

__all__ = [
    "Alarm",
    "Clock",
    "ManualClock",
    "SystemClock",
    "alarm",
    "current",
    "monotonic",
    "now",
    "replaced",
    "time",
]


class Alarm(Protocol):
    """A callback set for a time; `cancel()` stops it from running."""

    def when(self) -> float:
        """The `time()` the callback runs at."""
        ...

    def cancel(self) -> None:
        """Do not run the callback (once it ran, nothing happens)."""
        ...


class Clock(Protocol):
    """Where the package reads the time, sets its alarms and waits: the system's, or a test's."""

    def time(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start that never goes back, for intervals."""
        ...

    def alarm(self, when: float, callback: Callable[[], object]) -> Alarm:
        """Run `callback()` on the running event loop once `time()` reaches `when`."""
        ...

    def sleep(self, seconds: float) -> None:
        """Block the calling thread for `seconds`."""
        ...

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """Block until `event` is set (True) or `seconds` have passed (False)."""
        ...

    async def asleep(self, seconds: float) -> None:
        """Suspend the calling task for `seconds`."""
        ...


class SystemClock:
    """The machine's clock: `time.time()`, `time.monotonic()`, `time.sleep()`, `asyncio.sleep()`."""

    def time(self) -> float:
        """Seconds since the epoch."""
        return _time.time()

    def monotonic(self) -> float:
        """Seconds for intervals."""
        return _time.monotonic()

    def alarm(self, when: float, callback: Callable[[], object]) -> Alarm:
        """A timer of the running event loop, due `when - time()` seconds from now."""
        loop = asyncio.get_running_loop()
        return _LoopAlarm(loop, loop.call_later(max(when - self.time(), 0.0), callback))

    def sleep(self, seconds: float) -> None:
        """Block the calling thread for `seconds`."""
        _time.sleep(seconds)

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """Block until `event` is set (True) or `seconds` have passed (False)."""
        return event.wait(seconds)

    async def asleep(self, seconds: float) -> None:
        """Suspend the calling task for `seconds`."""
        await asyncio.sleep(seconds)

    def __repr__(self) -> str:
        return "SystemClock()"


class _LoopAlarm:
    def __init__(self, loop: asyncio.AbstractEventLoop, handle: asyncio.TimerHandle) -> None:
        self._loop = loop
        self._handle = handle

    def when(self) -> float:
        return _time.time() + self._handle.when() - self._loop.time()

    def cancel(self) -> None:
        self._handle.cancel()


class ManualClock:
    """
    A clock that stands still until `advance()` moves it on; it starts at the present.

    Every wait on it (`sleep()`, `wait()`, `asleep()`) is recorded in `waits`, and blocks until
    `advance()` has moved the clock that far (or the awaited event is set). With `auto` a wait
    returns at once instead, after moving the clock by the time it asked for.
    """

    def __init__(self, start: float | None = None, *, auto: bool = False) -> None:
        self.auto = auto
        #: Every wait asked for, in seconds, in order.
        self.waits: list[float] = []
        self._moved = threading.Condition()
        self._time = _time.time() if start is None else float(start)
        self._monotonic = _time.monotonic()
        self._alarms: list[_ManualAlarm] = []

    def time(self) -> float:
        """Seconds since the epoch, as far as the clock has been moved."""
        return self._time

    def monotonic(self) -> float:
        """Seconds for intervals, moved on with `time()`."""
        return self._monotonic

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` on (never back): the alarms and waits it reaches end."""
        if seconds < 0:
            raise ValueError("A clock does not go back")
        with self._moved:
            self._time += seconds
            self._monotonic += seconds
            self._moved.notify_all()
            due = [alarm for alarm in self._alarms if alarm.when() <= self._time]
            self._alarms = [alarm for alarm in self._alarms if alarm.when() > self._time]
        for alarm in sorted(due, key=_ManualAlarm.when):
            alarm.ring()

    def alarm(self, when: float, callback: Callable[[], object]) -> Alarm:
        """An alarm that rings once `advance()` moves the clock to `when` (at once if past)."""
        alarm = _ManualAlarm(asyncio.get_running_loop(), when, callback)
        with self._moved:
            if when > self._time:
                self._alarms.append(alarm)
                return alarm
        alarm.ring()
        return alarm

    def sleep(self, seconds: float) -> None:
        """Record the wait; block until moved `seconds` on (with `auto`, move on that far)."""
        self.wait(threading.Event(), seconds)

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """Record the wait; True once `event` is set, False once `seconds` have passed."""
        deadline = self._start(seconds)
        if self.auto:
            self.advance(seconds)
            return event.is_set()
        with self._moved:
            # Setting the event does not notify the condition: look again now and then.
            while not event.is_set() and self._time < deadline:
                self._moved.wait(0.05)
        return event.is_set()

    async def asleep(self, seconds: float) -> None:
        """Record the wait; await being moved `seconds` on (with `auto`, move on that far)."""
        deadline = self._start(seconds)
        if self.auto:
            self.advance(seconds)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.alarm(deadline, lambda: _wake(woken))
        await woken

    def _start(self, seconds: float) -> float:
        with self._moved:
            self.waits.append(seconds)
            return self._time + seconds

    def __repr__(self) -> str:
        return f"ManualClock(start={self._time!r}, auto={self.auto!r})"


class _ManualAlarm:
    def __init__(
        self, loop: asyncio.AbstractEventLoop, when: float, callback: Callable[[], object]
    ) -> None:
        self._loop = loop
        self._when = when
        self._callback = callback
        self._cancelled = False

    def when(self) -> float:
        return self._when

    def cancel(self) -> None:
        self._cancelled = True

    def ring(self) -> None:
        # From the thread that moved the clock to the loop's: in order, before anything the
        # loop is handed afterwards.
        self._loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        if not self._cancelled:
            self._callback()


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_current: Clock = SystemClock()

AnyClock = TypeVar("AnyClock", bound=Clock)


def current() -> Clock:
    """The package's clock: the system's, or the one `replaced()` put in its place."""
    return _current


def time() -> float:
    """Seconds since the epoch, on the package's clock."""
    return _current.time()


def monotonic() -> float:
    """Seconds for intervals, on the package's clock."""
    return _current.monotonic()


def alarm(when: float, callback: Callable[[], object]) -> Alarm:
    """Run `callback()` on the running event loop once the package's `time()` reaches `when`."""
    return _current.alarm(when, callback)


def now() -> _datetime.datetime:
    """
    The present on the package's clock as a datetime (`time()` is the same moment in seconds):
    aware UTC with `USE_TZ`, else naive local time. It reads Django's settings.
    """
    from django.conf import settings

    zone = _datetime.timezone.utc if settings.USE_TZ else None
    return _datetime.datetime.fromtimestamp(_current.time(), tz=zone)


@contextlib.contextmanager
def replaced(clock: AnyClock) -> Iterator[AnyClock]:
    """Read the time from `clock` while the block runs (the whole process does)."""
    global _current
    previous, _current = _current, clock
    try:
        yield clock
    finally:
        _current = previous

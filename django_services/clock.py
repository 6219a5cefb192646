"""
The server's clock: every server rule in which time passes reads the time here.

    from django_services import clock

    clock.time()        # seconds since the epoch: token `iat`/`exp`, refresh-token expiry
    clock.now()         # the same moment as a datetime, as Django stores it (`USE_TZ`)
    clock.monotonic()   # seconds for intervals: the socket.io call budget
    clock.alarm(when, callback)   # `callback()` on the running event loop at `clock.time()` `when`

A test moves time on instead of waiting for it to pass:

    with clock.replaced(clock.ManualClock()) as manual:
        manual.advance(61)          # a token issued now has expired a minute later

The clock is one object for the whole process (the threads of a live server included): a
manual clock's alarms ring when `advance()` reaches them, on the event loop that set them.
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
    """Where the server reads the time, and sets its alarms."""

    def time(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start that never goes back, for intervals."""
        ...

    def alarm(self, when: float, callback: Callable[[], object]) -> Alarm:
        """Run `callback()` on the running event loop once `time()` reaches `when`."""
        ...


class SystemClock:
    """The machine's clock: `time.time()` and `time.monotonic()`."""

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


class _LoopAlarm:
    def __init__(self, loop: asyncio.AbstractEventLoop, handle: asyncio.TimerHandle) -> None:
        self._loop = loop
        self._handle = handle

    def when(self) -> float:
        return _time.time() + self._handle.when() - self._loop.time()

    def cancel(self) -> None:
        self._handle.cancel()


class ManualClock:
    """A clock that stands still until `advance()` moves it on; it starts at the present."""

    def __init__(self, start: float | None = None) -> None:
        self._lock = threading.Lock()
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
        """Move the clock `seconds` on (never back)."""
        if seconds < 0:
            raise ValueError("A clock does not go back")
        with self._lock:
            self._time += seconds
            self._monotonic += seconds
            due = [alarm for alarm in self._alarms if alarm.when() <= self._time]
            self._alarms = [alarm for alarm in self._alarms if alarm.when() > self._time]
        for alarm in sorted(due, key=_ManualAlarm.when):
            alarm.ring()

    def alarm(self, when: float, callback: Callable[[], object]) -> Alarm:
        """An alarm that rings once `advance()` moves the clock to `when` (at once if past)."""
        alarm = _ManualAlarm(asyncio.get_running_loop(), when, callback)
        with self._lock:
            if when > self._time:
                self._alarms.append(alarm)
                return alarm
        alarm.ring()
        return alarm


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


_current: Clock = SystemClock()

AnyClock = TypeVar("AnyClock", bound=Clock)


def time() -> float:
    """Seconds since the epoch, on the server's clock."""
    return _current.time()


def monotonic() -> float:
    """Seconds for intervals, on the server's clock."""
    return _current.monotonic()


def alarm(when: float, callback: Callable[[], object]) -> Alarm:
    """Run `callback()` on the running event loop once the server's `time()` reaches `when`."""
    return _current.alarm(when, callback)


def now() -> _datetime.datetime:
    """The present on the server's clock: aware UTC with `USE_TZ`, else naive local time."""
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

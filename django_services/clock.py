"""
The server's clock: every server rule in which time passes reads the time here.

    from django_services import clock

    clock.time()        # seconds since the epoch: token `iat`/`exp`, refresh-token expiry
    clock.now()         # the same moment as a datetime, as Django stores it (`USE_TZ`)
    clock.monotonic()   # seconds for intervals: the socket.io call budget

A test moves time on instead of waiting for it to pass:

    with clock.replaced(clock.ManualClock()) as manual:
        manual.advance(61)          # a token issued now has expired a minute later

The clock is one object for the whole process (the threads of a live server included).
Timers the event loop runs (a socket's disconnect at its token's expiry) are scheduled from the
clock's time, but wait on the loop's own clock.
"""

from __future__ import annotations

import contextlib
import datetime as _datetime
import threading
import time as _time
from collections.abc import Iterator
from typing import Protocol, TypeVar

__all__ = ["Clock", "ManualClock", "SystemClock", "monotonic", "now", "replaced", "time"]


class Clock(Protocol):
    """Where the server reads the time."""

    def time(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start that never goes back, for intervals."""
        ...


class SystemClock:
    """The machine's clock: `time.time()` and `time.monotonic()`."""

    def time(self) -> float:
        """Seconds since the epoch."""
        return _time.time()

    def monotonic(self) -> float:
        """Seconds for intervals."""
        return _time.monotonic()


class ManualClock:
    """A clock that stands still until `advance()` moves it on; it starts at the present."""

    def __init__(self, start: float | None = None) -> None:
        self._lock = threading.Lock()
        self._time = _time.time() if start is None else float(start)
        self._monotonic = _time.monotonic()

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


_current: Clock = SystemClock()

AnyClock = TypeVar("AnyClock", bound=Clock)


def time() -> float:
    """Seconds since the epoch, on the server's clock."""
    return _current.time()


def monotonic() -> float:
    """Seconds for intervals, on the server's clock."""
    return _current.monotonic()


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

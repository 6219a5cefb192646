"""
A circuit breaker per remote: calls to an upstream that is down fail at once.

    breaker = Breaker("billing", BreakerConfig(failures=5, open_seconds=30))
    remotes["billing"].breaker.state      # "closed", "open" or "half-open"

Closed, every call goes; `failures` failed attempts in a row (no answer, a timeout, a 502, 503
or 504; never a 4xx, which an upstream that is up gives) open it. Open, every call raises
`Unavailable` at once, `data.retryAfter` telling when to come back, for `open_seconds` (or the
upstream's `Retry-After`, when longer, up to `retry_after_max`). Then it is half-open: one
trial call goes, the others still fail at once; an answer closes it, a failure opens it again.

With `cache`, the opening is shared through that Django cache: every process that calls the
remote reads it before its calls and fails fast too, and the trial that closes it clears it.
Each process then sends a trial of its own. Time is read on the flow's clock
(`django_services.clock` unless the connection has its own), so tests move it.

The breaker's steps are flows (`_flow.py`), run by `call_flow()` around each attempt, sync and
async alike.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from typing import Any

from .. import clock as package_clock
from ..clock import Clock
from ..errors import Unavailable
from . import telemetry
from ._flow import CacheGet, CacheSet, Flow, Now
from .config import parse_retry_after

__all__ = ["Breaker", "BreakerConfig"]

_NOW = Now()


def _positive(name: str, value: Any, kind: type = float) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}.")
    if kind is int and not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}.")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, not {value!r}.")
    return kind(value)


@dataclasses.dataclass(frozen=True)
class BreakerConfig:
    """
    When a remote's breaker opens, and for how long.

    **Parameters:**

    * **failures** - the failed attempts in a row that open it.
    * **open_seconds** - how long it stays open before a trial call.
    * **retry_after_max** - the longest upstream `Retry-After`, in seconds, that lengthens it.
    * **cache** - a cache alias sharing the opening between processes; `None`: this process.
    """

    failures: int = 5
    open_seconds: float = 30.0
    retry_after_max: float = 300.0
    cache: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "failures", _positive("failures", self.failures, int))
        object.__setattr__(self, "open_seconds", _positive("open_seconds", self.open_seconds))
        object.__setattr__(
            self, "retry_after_max", _positive("retry_after_max", self.retry_after_max)
        )
        if self.cache is not None and (not isinstance(self.cache, str) or not self.cache):
            raise TypeError(f"cache must be a cache alias or None, not {self.cache!r}.")


class Breaker:
    """
    The breaker of remote `name`; shared by its connections in every thread and event loop.

    `state` is "closed", "open" or "half-open"; `reset()` closes it (a test's fresh start).
    """

    def __init__(self, name: str, config: BreakerConfig | None = None) -> None:
        self.name = name
        self.config = config or BreakerConfig()
        self._lock = threading.Lock()
        #: Failed attempts in a row.
        self.failures = 0
        #: The time until which calls fail at once; `None` when closed.
        self.opened_until: float | None = None
        #: Whether a trial call is on its way (half-open).
        self.trial = False
        #: How many times it opened, for the metrics.
        self.openings = 0
        self._trial_deadline = 0.0
        #: The clock `state` reads (the remote's); `None` for the package's.
        self.clock: Clock | None = None
        self._cache_key = f"django_services:breaker:{name}"
        telemetry.watch(self)

    @property
    def idle(self) -> bool:
        """Whether a call needs no step of the breaker: closed, no failure, nothing shared."""
        return self.opened_until is None and not self.failures and self.config.cache is None

    @property
    def state(self) -> str:
        """The state: "closed", "open" (calls fail at once), "half-open" (a trial may go)."""
        if self.opened_until is None:
            return "closed"
        if self.trial:
            return "half-open"
        now = (self.clock or package_clock.current()).time()
        return "open" if now < self.opened_until else "half-open"

    def reset(self) -> None:
        """Close the breaker and forget its failures (this process's state only)."""
        with self._lock:
            self.failures, self.opened_until, self.trial = 0, None, False

    def before(self, what: str) -> Flow:
        """
        The flow run before an attempt: raise `Unavailable` while open, else return whether
        the attempt is the half-open trial (which `after()` or `abandon()` must then end).
        """
        if self.config.cache is not None:
            shared = yield CacheGet(self.config.cache, self._cache_key)
            self._adopt(shared)
        if self.opened_until is None:
            return False
        now = yield _NOW
        with self._lock:
            until = self.opened_until
            if until is None:
                return False
            # A trial whose flow was dropped without a verdict is not waited for forever.
            if now >= until and (not self.trial or now >= self._trial_deadline):
                self.trial = True
                self._trial_deadline = now + self.config.open_seconds
                return True
        raise self._unavailable(what, max(until - now, 0.0) or self.config.open_seconds)

    def after(self, trial: bool, *, down: bool, retry_after: str | None = None) -> Flow:
        """
        The flow run after an attempt: `down` if it says the upstream is down, with the
        upstream's `Retry-After`, if any. Any other answer closes the breaker.
        """
        if not down:
            if self.failures or self.opened_until is not None:
                with self._lock:
                    was_open = self.opened_until is not None
                    self.failures, self.opened_until, self.trial = 0, None, False
                if was_open and self.config.cache is not None:
                    yield CacheSet(self.config.cache, self._cache_key, None, 1)
            return
        now = yield _NOW
        with self._lock:
            self.failures += 1
            if trial:
                self.trial = False
            if not trial and self.failures < self.config.failures:
                return
            if not trial and self.opened_until is not None and now < self.opened_until:
                return  # already open: an attempt that was on its way as it opened
            seconds = self.config.open_seconds
            wait = parse_retry_after(retry_after, now=now)
            if wait is not None:
                seconds = max(seconds, min(wait, self.config.retry_after_max))
            self.opened_until = now + seconds
            self.openings += 1
        telemetry.breaker_opened(self.name)
        if self.config.cache is not None:
            yield CacheSet(
                self.config.cache, self._cache_key, self.opened_until, math.ceil(seconds) + 1
            )

    def abandon(self) -> None:
        """The trial ended with no verdict (cancelled, or a call that could not be made)."""
        with self._lock:
            self.trial = False

    def _adopt(self, shared: Any) -> None:
        if not isinstance(shared, (int, float)) or isinstance(shared, bool):
            return
        with self._lock:
            if self.opened_until is None or shared > self.opened_until:
                self.opened_until = float(shared)

    def _unavailable(self, what: str, seconds: float) -> Unavailable:
        retry_after = math.ceil(seconds)
        return Unavailable(
            f"The remote {self.name!r} is unavailable: {what} was not sent, as its last calls "
            f"failed (circuit breaker open). Try again in {retry_after} s.",
            {"retryAfter": retry_after, "remote": self.name},
        )

    def __repr__(self) -> str:
        return f"<Breaker {self.name!r} {self.state} failures={self.failures}>"

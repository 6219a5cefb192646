"""
A per-connection budget of calls, so that one socket cannot flood the server.

    budget = CallBudget(rate=1000, burst=1000, in_flight=32)
    wait = budget.start()      # None: go ahead (call `budget.finish()` when answered);
                               # else the seconds until a call would be allowed

A token bucket refills at `rate` calls a second up to `burst`; at most `in_flight` calls of
one connection are in flight at once (of which `slots` run, the others wait their turn). A
call over budget is answered 429 TooManyRequests at once, without running, and the socket
stays connected.
"""

from __future__ import annotations

import asyncio
import math

from ... import clock
from ...errors import TooManyRequests

__all__ = ["CallBudget", "too_many_calls"]


class CallBudget:
    """The calls one connection may still make (a token bucket and an in-flight cap)."""

    __slots__ = ("_stamp", "_tokens", "burst", "in_flight", "rate", "running", "slots")

    def __init__(
        self, rate: float, burst: int, in_flight: int, slots: asyncio.Semaphore | None = None
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.in_flight = in_flight
        self.running = 0
        #: The calls of the connection that may run at once (the others wait their turn).
        self.slots = slots
        self._tokens = float(burst)
        self._stamp = clock.monotonic()

    def start(self) -> float | None:
        """Take a call from the budget: None when allowed, else the seconds to wait."""
        now = clock.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self.running >= self.in_flight:
            return 1.0 / self.rate
        if self._tokens < 1:
            return (1 - self._tokens) / self.rate
        self._tokens -= 1
        self.running += 1
        return None

    def finish(self) -> None:
        """A call taken with `start()` was answered."""
        self.running -= 1


def too_many_calls(wait: float) -> dict[str, object]:
    """The error object of a call over budget, with the seconds to wait in `data`."""
    seconds = max(math.ceil(wait), 1)
    return TooManyRequests("Too many calls on this connection", {"retryAfter": seconds}).to_json()

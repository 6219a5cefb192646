"""A clock a test moves by hand: the client's flows read it and wait on it without sleeping."""

from __future__ import annotations

import time


class ManualClock:
    """
    Starts at the real time and moves only when told: `advance(seconds)`, or a flow's sleep,
    which returns at once after moving the clock by the time it asked for.
    """

    def __init__(self, now: float | None = None) -> None:
        self.time = time.time() if now is None else now
        #: Every sleep a flow asked for, in order.
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.time += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)

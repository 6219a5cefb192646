"""
`eventually()`: wait for something that must happen, failing with a message when it does not.

    eventually(lambda: app.connection.client.connected, timeout=15)
    await eventually_async(lambda: len(seen) == 2, message="both events arrive")

For things that must happen only: an absence is proved with a barrier (a later event or ack
on the same ordered channel), never by waiting for time to pass.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

#: Seconds a thing that must happen may take: generous, for a machine busy with other suites.
TIMEOUT = 10.0

#: Seconds between two looks at the predicate.
INTERVAL = 0.01


def eventually(predicate: Callable[[], Any], timeout: float = TIMEOUT, *, message: str = "") -> Any:
    """Return the first true value of `predicate()`; fail once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(_timed_out(predicate, timeout, message))
        time.sleep(INTERVAL)


async def eventually_async(
    predicate: Callable[[], Any], timeout: float = TIMEOUT, *, message: str = ""
) -> Any:
    """`eventually()` in an event loop: the loop runs on while the predicate is false."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(_timed_out(predicate, timeout, message))
        await asyncio.sleep(INTERVAL)


def _timed_out(predicate: Callable[[], Any], timeout: float, message: str) -> str:
    what = message or getattr(predicate, "__qualname__", repr(predicate))
    return f"not true within {timeout} s: {what}"

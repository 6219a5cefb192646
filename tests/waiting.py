"""
`eventually()`: wait for something that must happen, failing with a message when it does not.

    eventually(lambda: app.connection.client.connected, timeout=15)
    await eventually_async(lambda: len(seen) == 2, message="both events arrive")
    await eventually_async(page_shows_the_list)      # an awaitable it returns is awaited

For things that must happen only: an absence is proved with a barrier (a later event or ack
on the same ordered channel), never by waiting for time to pass.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

#: Seconds a thing that must happen may take: generous, for a machine busy with other suites.
TIMEOUT = 10.0

#: Seconds between two looks at the predicate.
INTERVAL = 0.01


def eventually(
    predicate: Callable[[], Any],
    timeout: float = TIMEOUT,
    *,
    message: str = "",
    interval: float = INTERVAL,
) -> Any:
    """Return the first true value of `predicate()`; fail once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(_timed_out(predicate, timeout, message))
        time.sleep(interval)


async def eventually_async(
    predicate: Callable[[], Any],
    timeout: float = TIMEOUT,
    *,
    message: str = "",
    interval: float = INTERVAL,
) -> Any:
    """
    `eventually()` in an event loop: the loop runs on while the predicate is false. An
    awaitable the predicate returns is awaited.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(_timed_out(predicate, timeout, message))
        await asyncio.sleep(interval)


def _timed_out(predicate: Callable[[], Any], timeout: float, message: str) -> str:
    what = message or getattr(predicate, "__qualname__", repr(predicate))
    return f"not true within {timeout} s: {what}"

"""
Calls wrapped by a bridge, written once for sync and async connections.

    def flow(self, request, connection):
        token = yield CacheGet("default", "billing-token")   # receives the cached value
        request = dataclasses.replace(request, headers={**request.headers, "X-Token": token})
        return (yield request)                               # receives the call's result

A flow is a generator: it yields the requests to send (each with the connection's retries),
the cache operations to run and the process locks to hold, receives their results (a Feathers
error is thrown into it) and returns the call's result. `run_flow` drives it over a sync
connection, `arun_flow` over an async one.

    yield Acquire(key)      # one caller of this process at a time, threads and tasks alike
    ...                     # check the cache, log in if needed
    yield Release(key)      # or the flow ends: every lock it still holds is released
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from ...errors import FeathersError
from .._base import Request
from .locks import process_locks

if TYPE_CHECKING:
    from ..connections.base import BaseConnection

__all__ = ["Acquire", "CacheGet", "CacheSet", "Flow", "Release", "arun_flow", "run_flow"]


@dataclasses.dataclass(frozen=True)
class CacheGet:
    """A flow step: read `key` from the cache `alias`; the flow receives the value or None."""

    alias: str
    key: str


@dataclasses.dataclass(frozen=True)
class CacheSet:
    """A flow step: store `value` under `key` in the cache `alias` for `timeout` seconds."""

    alias: str
    key: str
    value: Any
    timeout: Any = DEFAULT_TIMEOUT


@dataclasses.dataclass(frozen=True)
class Acquire:
    """
    A flow step: wait for this process's lock `name`, then hold it until the flow yields
    `Release(name)` or ends. The flow receives None.
    """

    name: str


@dataclasses.dataclass(frozen=True)
class Release:
    """A flow step: release the lock `name` the flow holds. The flow receives None."""

    name: str


Step = Request | CacheGet | CacheSet | Acquire | Release
#: A call wrapped by a bridge: yields steps, receives their results, returns the call's result.
Flow = Generator[Step, Any, Any]


def run_flow(flow: Flow, connection: BaseConnection) -> Any:
    """Drive `flow` with a sync connection; return its result or raise its error."""
    outcome: Any = None
    error: FeathersError | None = None
    held: list[str] = []
    try:
        while True:
            try:
                step = flow.send(outcome) if error is None else flow.throw(error)
            except StopIteration as done:
                return done.value
            outcome, error = None, None
            if isinstance(step, Request):
                try:
                    outcome = connection.call(step)
                except FeathersError as exc:
                    error = exc
            elif isinstance(step, CacheGet):
                outcome = caches[step.alias].get(step.key)
            elif isinstance(step, CacheSet):
                caches[step.alias].set(step.key, step.value, step.timeout)
            elif isinstance(step, Acquire):
                process_locks.acquire(step.name)
                held.append(step.name)
            else:
                _release(held, step)
    finally:
        flow.close()
        _release_all(held)


async def arun_flow(flow: Flow, connection: BaseConnection) -> Any:
    """Drive `flow` with an async connection; return its result or raise its error."""
    outcome: Any = None
    error: FeathersError | None = None
    held: list[str] = []
    try:
        while True:
            try:
                step = flow.send(outcome) if error is None else flow.throw(error)
            except StopIteration as done:
                return done.value
            outcome, error = None, None
            if isinstance(step, Request):
                try:
                    outcome = await connection.call(step)
                except FeathersError as exc:
                    error = exc
            elif isinstance(step, CacheGet):
                outcome = await caches[step.alias].aget(step.key)
            elif isinstance(step, CacheSet):
                await caches[step.alias].aset(step.key, step.value, step.timeout)
            elif isinstance(step, Acquire):
                await process_locks.aacquire(step.name)
                held.append(step.name)
            else:
                _release(held, step)
    finally:
        flow.close()
        _release_all(held)


def _release(held: list[str], step: Release) -> None:
    if step.name not in held:
        raise RuntimeError(f"The flow released the lock {step.name!r}, which it does not hold.")
    held.remove(step.name)
    process_locks.release(step.name)


def _release_all(held: list[str]) -> None:
    while held:
        process_locks.release(held.pop())

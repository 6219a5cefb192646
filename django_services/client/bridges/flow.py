"""
Calls wrapped by a bridge, written once for sync and async connections.

    def flow(self, request, connection):
        token = yield CacheGet("default", "billing-token")   # receives the cached value
        request = dataclasses.replace(request, headers={**request.headers, "X-Token": token})
        return (yield request)                               # receives the call's result

A flow is a generator: it yields the requests to send (each with the connection's retries)
and the cache operations to run, receives their results (a Feathers error is thrown into it)
and returns the call's result. `run_flow` drives it over a sync connection, `arun_flow` over
an async one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from ...errors import FeathersError
from .._base import Request

if TYPE_CHECKING:
    from ..connections.base import BaseConnection

__all__ = ["CacheGet", "CacheSet", "Flow", "arun_flow", "run_flow"]


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


Step = Request | CacheGet | CacheSet
#: A call wrapped by a bridge: yields steps, receives their results, returns the call's result.
Flow = Generator[Step, Any, Any]


def run_flow(flow: Flow, connection: BaseConnection) -> Any:
    """Drive `flow` with a sync connection; return its result or raise its error."""
    outcome: Any = None
    error: FeathersError | None = None
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
            else:
                caches[step.alias].set(step.key, step.value, step.timeout)
    finally:
        flow.close()


async def arun_flow(flow: Flow, connection: BaseConnection) -> Any:
    """Drive `flow` with an async connection; return its result or raise its error."""
    outcome: Any = None
    error: FeathersError | None = None
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
            else:
                await caches[step.alias].aset(step.key, step.value, step.timeout)
    finally:
        flow.close()

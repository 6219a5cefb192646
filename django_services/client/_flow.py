"""
One flow protocol for everything the client does in steps: retries, authentication, bridges.

    def flow():
        token = yield CacheGet("default", "billing-token")    # receives the cached value
        now = yield Now()                                      # receives the clock's time
        answer = yield Send(transport, request)                # receives the transport's answer
        ...
        return result

A flow is a generator: it yields steps, receives their results (a step's exception is thrown
into it) and returns its own result. `run()` takes the steps blocking, `arun()` awaits them; so
a flow written once behaves the same over sync and async transports. Flows compose with
`yield from`: `call_flow()` (one call, sent again as the transport's retries say) is the
building block of the others.

Time only passes through the driver's clock (`Now`, `Sleep`), the package's
(`django_services.clock`) unless the driver is given another: a test gives it a
`django_services.clock.ManualClock` and moves it, without sleeping.

    yield Acquire(key)      # one caller of this process at a time, threads and tasks alike
    ...                     # check the cache, log in if needed
    yield Release(key)      # or the flow ends: every lock it still holds is released
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Generator
from typing import Any, Protocol

from django.core.cache.backends.base import DEFAULT_TIMEOUT

from .. import clock as package_clock
from ..clock import Clock
from ..errors import FeathersError
from . import telemetry
from ._base import TransportFailure
from .config import Retries, is_down

__all__ = [
    "Acquire",
    "CacheGet",
    "CacheSet",
    "Delete",
    "Flow",
    "FlowTransport",
    "Load",
    "Now",
    "Release",
    "Save",
    "Send",
    "Sleep",
    "arun",
    "call_flow",
    "drive",
    "run",
]


class FlowTransport(Protocol):
    """What `call_flow()` asks of a transport besides its one `send` method."""

    retries: Retries | None

    def send(self, message: Any) -> Any:
        """Send `message` once and return the answer (a coroutine of it when async)."""
        ...

    def decode(self, message: Any, answer: Any) -> Any:
        """The result an answer carries, or raise the Feathers error it describes."""
        ...

    def no_answer(self, failure: TransportFailure) -> FeathersError:
        """The Feathers error of a message that got no answer."""
        ...

    def retry_hint(self, answer: Any, error: FeathersError) -> tuple[int | None, str | None] | None:
        """The status and `Retry-After` a retry reads from `error`; `None` never retries it."""
        ...


# Made for every call, so without the cost of a frozen dataclass's init.
@dataclasses.dataclass(slots=True)
class Send:
    """A step: send `message` once over `transport`; the flow receives the answer."""

    transport: Any
    message: Any


@dataclasses.dataclass(frozen=True)
class Sleep:
    """A step: let `seconds` pass on the driver's clock. The flow receives None."""

    seconds: float


@dataclasses.dataclass(frozen=True)
class Now:
    """A step: read the driver's clock; the flow receives the seconds since the epoch."""


@dataclasses.dataclass(frozen=True)
class CacheGet:
    """A step: read `key` from the cache `alias`; the flow receives the value or None."""

    alias: str
    key: str


@dataclasses.dataclass(frozen=True)
class CacheSet:
    """A step: store `value` under `key` in the cache `alias` for `timeout` seconds."""

    alias: str
    key: str
    value: Any
    timeout: Any = DEFAULT_TIMEOUT


@dataclasses.dataclass(frozen=True)
class Acquire:
    """
    A step: wait for this process's lock `name`, then hold it until the flow yields
    `Release(name)` or ends. The flow receives None.
    """

    name: str


@dataclasses.dataclass(frozen=True)
class Release:
    """A step: release the lock `name` the flow holds. The flow receives None."""

    name: str


@dataclasses.dataclass(frozen=True)
class Load:
    """A step: read `key` from an authentication storage; the flow receives the value."""

    storage: Any
    key: str


@dataclasses.dataclass(frozen=True)
class Save:
    """A step: write `value` under `key` in an authentication storage."""

    storage: Any
    key: str
    value: Any


@dataclasses.dataclass(frozen=True)
class Delete:
    """A step: remove `key` from an authentication storage."""

    storage: Any
    key: str


Step = Send | Sleep | Now | CacheGet | CacheSet | Acquire | Release | Load | Save | Delete
#: A flow: yields steps, receives their results, returns its own.
Flow = Generator[Step, Any, Any]

_NOW = Now()


def call_flow(transport: FlowTransport, message: Any) -> Flow:
    """
    One call: send `message` (again, as `transport.retries` say) and return its result.

    Only idempotent methods are sent again, after a lost connection or a retryable status,
    waiting the `Retry-After` the server asked for; a timeout is never sent again. A transport
    with a `breaker` (a remote's, see `breaker.py`) fails at once while it is open, and tells
    it how each attempt went.
    """
    retries = transport.retries
    breaker = getattr(transport, "breaker", None)
    retry = 0
    while True:
        cause: BaseException | None = None
        trial = False
        if breaker is not None and not breaker.idle:
            trial = yield from breaker.before(message.service_method)
        hint: tuple[int | None, str | None] | None
        try:
            answer = yield Send(transport, message)
        except TransportFailure as failure:
            error = transport.no_answer(failure)
            if breaker is not None:
                yield from breaker.after(trial, down=True)
            if retries is None or failure.timed_out:
                raise error from failure.cause
            hint = (None, None)
            cause = failure.cause
        except FeathersError as exc:
            if breaker is not None:
                yield from breaker.after(trial, down=is_down(exc))
            if retries is None:
                raise
            error, hint = exc, transport.retry_hint(None, exc)
        except BaseException:
            if trial:
                breaker.abandon()  # type: ignore[union-attr]
            raise
        else:
            try:
                result = transport.decode(message, answer)
            except FeathersError as exc:
                error, hint = exc, transport.retry_hint(answer, exc)
                if breaker is not None:
                    status = hint[0] if hint is not None else exc.code
                    yield from breaker.after(
                        trial,
                        down=is_down(exc, status if isinstance(status, int) else 0),
                        retry_after=hint[1] if hint is not None else None,
                    )
                if retries is None:
                    raise
            else:
                if breaker is not None:
                    yield from breaker.after(trial, down=False)
                return result
        delay = None
        if hint is not None:
            retry += 1
            status, retry_after = hint
            delay = retries.delay(
                message.service_method,
                retry,
                status=status,
                retry_after=retry_after,
                now=(yield _NOW) if retry_after else 0.0,
                random=random.random(),
            )
        if delay is None:
            if cause is not None:
                raise error from cause
            raise error
        if breaker is not None:
            telemetry.retried(breaker.name, message)
        yield Sleep(delay)


def drive(flow: Flow, transport: Any, *, clock: Clock | None = None) -> Any:
    """
    Run `flow` with the driver `transport` needs: its result, or a coroutine of it for an
    async transport; on `clock`, else the transport's own, else the package's.
    """
    clock = clock or getattr(transport, "clock", None)
    if transport.is_async:
        return arun(flow, clock=clock)
    return run(flow, clock=clock)


def run(flow: Flow, *, clock: Clock | None = None) -> Any:
    """Take the steps of `flow`, blocking; return its result or raise its error."""
    clock = clock or package_clock.current()
    outcome: Any = None
    error: BaseException | None = None
    held: list[str] = []
    try:
        while True:
            try:
                step = flow.send(outcome) if error is None else flow.throw(error)
            except StopIteration as done:
                return done.value
            outcome, error = None, None
            try:
                if isinstance(step, Send):
                    outcome = step.transport.send(step.message)
                elif isinstance(step, Now):
                    outcome = clock.time()
                elif isinstance(step, Sleep):
                    clock.sleep(step.seconds)
                elif isinstance(step, Load):
                    outcome = step.storage.get(step.key)
                elif isinstance(step, Save):
                    step.storage.set(step.key, step.value)
                elif isinstance(step, Delete):
                    step.storage.delete(step.key)
                else:
                    outcome = _locks_and_cache(step, held)
            except Exception as exc:  # the flow handles it, or it goes on to the caller
                error = exc
    finally:
        flow.close()
        if held:
            _release_all(held)


async def arun(flow: Flow, *, clock: Clock | None = None) -> Any:
    """Take the steps of `flow`, awaiting them; return its result or raise its error."""
    clock = clock or package_clock.current()
    outcome: Any = None
    error: BaseException | None = None
    held: list[str] = []
    try:
        while True:
            try:
                step = flow.send(outcome) if error is None else flow.throw(error)
            except StopIteration as done:
                return done.value
            outcome, error = None, None
            try:
                if isinstance(step, Send):
                    outcome = await step.transport.send(step.message)
                elif isinstance(step, Now):
                    outcome = clock.time()
                elif isinstance(step, Sleep):
                    await clock.asleep(step.seconds)
                elif isinstance(step, Load):
                    outcome = await _storage(step.storage, "get", step.key)
                elif isinstance(step, Save):
                    await _storage(step.storage, "set", step.key, step.value)
                elif isinstance(step, Delete):
                    await _storage(step.storage, "delete", step.key)
                elif isinstance(step, Acquire):
                    from .bridges.locks import process_locks

                    await process_locks.aacquire(step.name)
                    held.append(step.name)
                elif isinstance(step, CacheGet):
                    outcome = await _cache(step.alias).aget(step.key)
                elif isinstance(step, CacheSet):
                    await _cache(step.alias).aset(step.key, step.value, step.timeout)
                else:
                    outcome = _locks_and_cache(step, held)
            except Exception as exc:  # the flow handles it, or it goes on to the caller
                error = exc
    finally:
        flow.close()
        if held:
            _release_all(held)


def _locks_and_cache(step: Any, held: list[str]) -> Any:
    """Take a lock or cache step, blocking (the async driver awaits all but `Release`)."""
    from .bridges.locks import process_locks

    if isinstance(step, CacheGet):
        return _cache(step.alias).get(step.key)
    if isinstance(step, CacheSet):
        _cache(step.alias).set(step.key, step.value, step.timeout)
    elif isinstance(step, Acquire):
        process_locks.acquire(step.name)
        held.append(step.name)
    elif isinstance(step, Release):
        if step.name not in held:
            raise RuntimeError(f"The flow released the lock {step.name!r}, which it does not hold.")
        held.remove(step.name)
        process_locks.release(step.name)
    else:
        raise TypeError(f"A flow yielded {step!r}, which is not a step.")
    return None


def _release_all(held: list[str]) -> None:
    from .bridges.locks import process_locks

    while held:
        process_locks.release(held.pop())


def _cache(alias: str) -> Any:
    # Django's caches need settings: imported when a flow first uses one.
    from django.core.cache import caches

    return caches[alias]


async def _storage(storage: Any, operation: str, *args: Any) -> Any:
    # A storage without the async twin (a plain object with get/set/delete) is called as is.
    async_operation = getattr(storage, f"a{operation}", None)
    if async_operation is not None:
        return await async_operation(*args)
    return getattr(storage, operation)(*args)

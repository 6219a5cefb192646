"""
The one flow protocol: a call sent again as the retry rules say, and every step, taken by the
blocking driver and by the async one alike, with time passing on a clock the test moves.
"""

from __future__ import annotations

import asyncio

import pytest

from django_services.client import Retries
from django_services.client._base import Response, TransportFailure, build_request
from django_services.client._flow import (
    Acquire,
    CacheGet,
    CacheSet,
    Delete,
    Load,
    Now,
    Release,
    Save,
    Sleep,
    arun,
    call_flow,
    run,
)
from django_services.client.bridges.locks import process_locks
from django_services.client.storage import MemoryStorage
from django_services.client.transports.base import AsyncTransport, Transport
from django_services.clock import ManualClock
from django_services.errors import NotFound, Timeout, TooManyRequests, Unavailable

GET = build_request("get", "http://api", "todos", id=1)
CREATE = build_request("create", "http://api", "todos", data={"text": "x"})


def ok(body=b"[]", status=200, headers=None):
    return Response(status, "", headers or {}, body)


class Scripted(Transport):
    """A transport whose library answers from a script: responses, or failures to raise."""

    def __init__(self, answers, retries=None):
        super().__init__(object(), options={"retries": retries})
        self.answers = list(answers)
        self.sent = []

    def send(self, request):
        self.sent.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


class AsyncScripted(AsyncTransport):
    def __init__(self, answers, retries=None):
        super().__init__(object(), options={"retries": retries})
        self.answers = list(answers)
        self.sent = []

    async def send(self, request):
        self.sent.append(request)
        await asyncio.sleep(0)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


@pytest.fixture(params=["sync", "async"])
def drive(request):
    """Run a flow (made from a transport) with the driver of the parametrized kind."""

    def drive(answers, make_flow, *, retries=None, clock=None):
        clock = clock or ManualClock(auto=True)
        if request.param == "sync":
            transport = Scripted(answers, retries)
            return run(make_flow(transport), clock=clock), transport
        transport = AsyncScripted(answers, retries)
        return asyncio.run(arun(make_flow(transport), clock=clock)), transport

    return drive


def test_a_call_decodes_its_response(drive):
    result, transport = drive([ok(b'{"id": 1}')], lambda t: call_flow(t, GET))

    assert result == {"id": 1}
    assert transport.sent == [GET]


def test_a_call_waits_on_the_clock_then_is_sent_again(drive):
    clock = ManualClock(auto=True)
    retries = Retries(total=3, backoff_factor=1, jitter=0)
    busy = ok(b"", 503, {"Retry-After": "4"})
    failure = TransportFailure(GET, ConnectionResetError("reset"))

    result, transport = drive(
        [busy, failure, ok(b'"done"')], lambda t: call_flow(t, GET), retries=retries, clock=clock
    )

    assert result == "done"
    assert transport.sent == [GET, GET, GET]
    assert clock.waits == [4.0, 2.0]


def test_a_retry_after_date_is_read_on_the_clock(drive):
    clock = ManualClock(start=1_700_000_000, auto=True)
    busy = ok(b"", 429, {"Retry-After": "Tue, 14 Nov 2023 22:13:30 GMT"})  # now + 10 s

    result, _ = drive([busy, ok(b"1")], lambda t: call_flow(t, GET), retries=Retries(), clock=clock)

    assert result == 1
    assert clock.waits == [10.0]


def test_a_call_of_a_method_that_is_not_idempotent_is_sent_once(drive):
    clock = ManualClock(auto=True)
    busy = ok(b'{"name": "TooManyRequests", "message": "slow down", "code": 429}', 429)

    with pytest.raises(TooManyRequests, match="slow down"):
        drive([busy], lambda t: call_flow(t, CREATE), retries=Retries(), clock=clock)
    assert clock.waits == []


def test_a_call_raises_the_error_of_its_last_answer(drive):
    not_found = ok(b'{"name": "NotFound", "message": "gone"}', 404)
    with pytest.raises(NotFound, match="gone"):
        drive([not_found], lambda t: call_flow(t, GET), retries=Retries())

    cause = TimeoutError("read timed out")
    with pytest.raises(Timeout) as caught:
        drive(
            [TransportFailure(GET, cause, timed_out=True)],
            lambda t: call_flow(t, GET),
            retries=Retries(),
        )
    assert caught.value.__cause__ is cause

    refused = TransportFailure(GET, ConnectionRefusedError("refused"))
    with pytest.raises(Unavailable, match="refused"):
        drive(
            [refused, refused],
            lambda t: call_flow(t, GET),
            retries=Retries(total=1, backoff_factor=0),
        )


def test_without_retries_a_lost_connection_is_unavailable_at_once(drive):
    clock = ManualClock(auto=True)
    refused = TransportFailure(GET, ConnectionRefusedError("refused"))

    with pytest.raises(Unavailable):
        drive([refused, ok()], lambda t: call_flow(t, GET), clock=clock)
    assert clock.waits == []


def test_every_step_is_taken_by_both_drivers(drive, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    storage = MemoryStorage()
    clock = ManualClock(start=100.0, auto=True)

    def flow(transport):
        yield Save(storage, "token", "t1")
        loaded = yield Load(storage, "token")
        yield Delete(storage, "token")
        gone = yield Load(storage, "token")
        yield CacheSet("default", "flow-key", "cached", 60)
        cached = yield CacheGet("default", "flow-key")
        yield Acquire("flow-lock")
        yield Sleep(5)
        now = yield Now()
        yield Release("flow-lock")
        answer = yield from call_flow(transport, GET)
        return loaded, gone, cached, now, answer

    result, _ = drive([ok(b'"x"')], flow, clock=clock)

    assert result == ("t1", None, "cached", 105.0, "x")


def test_a_lock_still_held_is_released_when_the_flow_fails(drive):
    def flow(transport):
        yield Acquire("flow-failing-lock")
        return (yield from call_flow(transport, GET))

    with pytest.raises(NotFound):
        drive([ok(b'{"name": "NotFound", "message": "gone"}', 404)], flow)

    process_locks.acquire("flow-failing-lock")  # would block forever if it were still held
    process_locks.release("flow-failing-lock")


def test_an_error_of_a_step_is_thrown_into_the_flow(drive):
    def flow(transport):
        try:
            yield Release("never-held")
        except RuntimeError as error:
            return str(error)

    result, _ = drive([], flow)

    assert "does not hold" in result

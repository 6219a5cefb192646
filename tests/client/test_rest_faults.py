"""
Errors, odd responses, timeouts, refused and dropped connections, and retries, served by a real
HTTP server on loopback, with each of the four connection kinds.
"""

from __future__ import annotations

import time

import aiohttp
import httpx
import pytest
import requests

from django_services.client import Retries
from django_services.errors import (
    BadGateway,
    FeathersError,
    GeneralError,
    Gone,
    NotFound,
    Timeout,
    TooManyRequests,
    Unavailable,
)

from .wire import Reply

RESPONSE_TYPES = {
    "requests": requests.Response,
    "httpx": httpx.Response,
    "httpx-async": httpx.Response,
    "aiohttp": aiohttp.ClientResponse,
}
# Fast retries, so the tests measure the rules rather than the clock.
QUICK = Retries(total=2, backoff_factor=0.01, jitter=0)


def test_feathers_error_keeps_everything_the_server_sent(harness, wire):
    body = {
        "name": "NotFound",
        "message": "No record found for id '9'",
        "code": 404,
        "className": "not-found",
        "data": {"id": 9, "message": "kept as sent"},
        "errors": {"id": ["unknown"]},
    }
    wire.reply(Reply(404, body))
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(NotFound) as caught:
        harness.run(todos.get(9))

    error = caught.value
    assert (error.name, error.code) == ("NotFound", 404)
    assert error.message == "No record found for id '9'"
    assert error.class_name == error.className == "not-found"
    assert error.data == {"id": 9, "message": "kept as sent"}
    assert error.errors == {"id": ["unknown"]}
    assert error.to_json() == body
    assert isinstance(error.response, RESPONSE_TYPES[harness.kind])


def test_error_class_comes_from_the_name_then_the_status(harness, wire):
    wire.reply(
        Reply(410, {"name": "Gone", "message": "gone", "code": 410, "className": "gone"}),
        Reply(418, {"name": "Teapot", "message": "short and stout", "code": 418}),
        Reply(500, {"message": "Plain error message"}),
    )
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(Gone):
        harness.run(todos.find())
    with pytest.raises(FeathersError) as teapot:
        harness.run(todos.find())
    with pytest.raises(GeneralError) as koa:
        harness.run(todos.find())

    assert type(teapot.value) is FeathersError
    assert (teapot.value.name, teapot.value.code) == ("Teapot", 418)
    assert (koa.value.name, koa.value.message, koa.value.code) == (
        "GeneralError",
        "Plain error message",
        500,
    )


def test_non_json_error_body_becomes_the_class_for_its_status(harness, wire):
    wire.reply(
        Reply(502, b"<html>Bad Gateway</html>"),
        Reply(504, b"upstream timed out"),
        Reply(403, {"detail": "CSRF Failed"}, reason="Go Away"),
    )
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(BadGateway) as proxy:
        harness.run(todos.find())
    with pytest.raises(FeathersError) as gateway:
        harness.run(todos.find())
    with pytest.raises(FeathersError) as drf:
        harness.run(todos.find())

    assert (proxy.value.message, proxy.value.code) == ("502 Bad Gateway", 502)
    assert isinstance(proxy.value.response, RESPONSE_TYPES[harness.kind])
    assert type(gateway.value) is FeathersError
    assert (gateway.value.message, gateway.value.code) == ("504 Gateway Timeout", 504)
    # A JSON body that is not a Feathers error is kept as data.
    assert (drf.value.name, drf.value.message) == ("Forbidden", "403 Go Away")
    assert drf.value.data == {"detail": "CSRF Failed"}


def test_no_content_and_empty_bodies_are_none(harness, wire):
    wire.reply(Reply(204), Reply(200, b""), Reply(201, b"  "))
    todos = harness.connect(wire.url).service("todos")

    assert harness.run(todos.remove(1)) is None
    assert harness.run(todos.find()) is None
    assert harness.run(todos.create({})) is None


def test_invalid_json_in_a_success_is_general_error(harness, wire):
    wire.reply(Reply(200, b"<html>login page</html>"))
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(GeneralError, match="is not valid JSON") as caught:
        harness.run(todos.find())

    assert "200 OK" in caught.value.message
    assert isinstance(caught.value.response, RESPONSE_TYPES[harness.kind])


def test_slow_response_is_timeout_and_never_retried(harness, wire):
    wire.reply(Reply(200, [], delay=2))
    todos = harness.connect(wire.url, {"timeout": 0.2, "retries": QUICK}).service("todos")

    # The server answers after 2 seconds: a Timeout can only come from the client's own timeout.
    with pytest.raises(Timeout) as caught:
        harness.run(todos.find())

    assert caught.value.code == 408
    assert caught.value.data == {"method": "GET", "url": f"{wire.url}/todos"}
    assert len(wire.requests) == 1


def per_request_timeout(kind):
    if kind == "aiohttp":
        return {"timeout": aiohttp.ClientTimeout(total=0.2)}
    return {"timeout": 0.2}


def test_params_connection_goes_to_the_library(harness, wire):
    wire.reply(Reply(200, [], delay=2))
    todos = harness.connect(wire.url, {"timeout": 30}).service("todos")

    with pytest.raises(Timeout):
        harness.run(todos.find(connection=per_request_timeout(harness.kind)))


def test_connection_refused_is_unavailable(harness, refused_url):
    todos = harness.connect(refused_url, {"retries": QUICK}).service("todos")

    with pytest.raises(Unavailable) as caught:
        harness.run(todos.find())

    assert caught.value.code == 503
    assert caught.value.response is None
    assert caught.value.data == {"method": "GET", "url": f"{refused_url}/todos"}
    assert caught.value.message.startswith(f"No response from GET {refused_url}/todos")


def test_dropped_connection_is_unavailable(harness, wire):
    wire.reply(Reply(drop=True))
    todos = harness.connect(wire.url, {"retries": QUICK}).service("todos")

    with pytest.raises(Unavailable):
        harness.run(todos.create({"text": "a"}))

    assert len(wire.requests) == 1


def test_dropped_connection_is_retried_for_idempotent_methods(harness, wire):
    wire.reply(Reply(drop=True), Reply(drop=True), Reply(200, {"id": 1}))
    todos = harness.connect(wire.url, {"retries": QUICK}).service("todos")

    assert harness.run(todos.get(1)) == {"id": 1}
    assert {(r.method, r.target) for r in wire.requests} == {("GET", "/todos/1")}


@pytest.mark.parametrize("status", [429, 502, 503, 504])
@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.find(),
        lambda s: s.get(1),
        lambda s: s.update(1, {"a": 1}),
        lambda s: s.remove(1),
    ],
    ids=["find", "get", "update", "remove"],
)
def test_idempotent_methods_are_retried(harness, wire, status, call):
    wire.reply(Reply(status, {"name": "x", "message": "busy"}), Reply(200, {"ok": True}))
    todos = harness.connect(wire.url, {"retries": QUICK}).service("todos")

    assert harness.run(call(todos)) == {"ok": True}
    assert len(wire.requests) == 2
    assert wire.requests[0].target == wire.requests[1].target
    assert wire.requests[0].body == wire.requests[1].body


@pytest.mark.parametrize(
    "call",
    [lambda s: s.create({"a": 1}), lambda s: s.patch(1, {"a": 1}), lambda s: s.run({})],
    ids=["create", "patch", "custom"],
)
def test_other_methods_are_not_retried_unless_asked(harness, wire, call):
    unavailable = Reply(503, {"name": "Unavailable", "message": "busy", "code": 503})
    wire.reply(unavailable, unavailable, Reply(200, {"ok": True}))
    app = harness.app(wire.url, {"retries": QUICK})
    app.use("jobs", app.connection.service("jobs"), methods=["run"])

    with pytest.raises(Unavailable):
        harness.run(call(app.service("jobs")))
    assert len(wire.requests) == 1

    wire.reset()
    wire.reply(unavailable, Reply(200, {"ok": True}))
    asked = Retries(total=2, backoff_factor=0.01, methods={"create", "patch", "run"})
    app = harness.app(wire.url, {"retries": asked})
    app.use("jobs", app.connection.service("jobs"), methods=["run"])

    assert harness.run(call(app.service("jobs"))) == {"ok": True}
    assert len(wire.requests) == 2


def test_retry_after_is_honoured(harness, wire):
    wire.reply(
        Reply(503, {"name": "Unavailable", "message": "later"}, headers={"Retry-After": "1"}),
        Reply(200, []),
    )
    todos = harness.connect(wire.url, {"retries": Retries(backoff_factor=0)}).service("todos")

    started = time.monotonic()
    assert harness.run(todos.find()) == []

    assert time.monotonic() - started >= 0.95
    assert len(wire.requests) == 2


def test_retry_after_beyond_the_maximum_raises_at_once(harness, wire):
    wire.reply(Reply(429, {"name": "TooManyRequests", "message": "slow down", "code": 429},
                     headers={"Retry-After": "3600"}))  # fmt: skip
    todos = harness.connect(wire.url, {"retries": Retries(retry_after_max=60)}).service("todos")

    started = time.monotonic()
    with pytest.raises(TooManyRequests) as caught:
        harness.run(todos.find())

    assert time.monotonic() - started < 5
    assert caught.value.response is not None
    assert len(wire.requests) == 1


def test_retries_give_up_with_the_last_error(harness, wire):
    wire.reply(*[Reply(502, b"bad gateway") for _ in range(5)])
    todos = harness.connect(wire.url, {"retries": QUICK}).service("todos")

    with pytest.raises(BadGateway):
        harness.run(todos.find())

    assert len(wire.requests) == 3


def test_without_retries_an_error_is_raised_at_once(harness, wire):
    wire.reply(Reply(503, {"name": "Unavailable", "message": "busy"}), Reply(200, []))
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(Unavailable):
        harness.run(todos.find())

    assert len(wire.requests) == 1

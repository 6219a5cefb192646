"""Bad input over sockets gets the contract's errors, and never stops the server."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.socketio.conftest import Client, LiveSocketServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def throttled_server(services_settings, transactional_db):
    server = LiveSocketServer(call_rate=5, call_burst=5)
    server.start()
    yield server
    server.stop()


async def test_a_flood_of_calls_is_throttled_per_connection(throttled_server):
    flooder = await Client(throttled_server.url, "websocket").connect()
    other = await Client(throttled_server.url, "websocket").connect()
    try:
        answers = await asyncio.gather(*(flooder.ack("find", "people", {}) for _ in range(30)))
        allowed = [answer for answer in answers if answer == [None, []]]
        refused = [answer[0] for answer in answers if len(answer) == 1]
        assert 5 <= len(allowed) < 30 and len(allowed) + len(refused) == 30
        assert {(error["name"], error["code"]) for error in refused} == {("TooManyRequests", 429)}
        assert refused[0]["message"] == "Too many calls on this connection"
        assert refused[0]["data"]["retryAfter"] >= 1

        # Another connection has a budget of its own; the flooder's refills with time.
        assert await other.call("find", "people", {}) == []
        await asyncio.sleep(1.2)
        assert await flooder.call("find", "people", {}) == []
        assert flooder.sio.connected
    finally:
        await flooder.close()
        await other.close()


async def test_a_payload_over_the_limit_closes_that_socket_only(connect, live_socket_server):
    victim = await connect()
    bystander = await connect()
    await victim.sio.emit("create", ("people", {"name": "x" * 1_100_000}, {}))
    await asyncio.wait_for(victim.disconnected.wait(), 10)
    assert await bystander.call("find", "people", {}) == []
    fresh = await connect()
    ada = await fresh.call("create", "people", {"name": "Ada"}, {})
    assert await fresh.call("get", "people", ada["id"], {}) == ada


@pytest.mark.parametrize(
    ("event", "args"),
    [
        ("find", ("people", {"name": {"$regex": ".*"}})),
        ("find", ("people", {"$sort": {"name": "sideways"}})),
        ("find", ("people", {"$or": "everything"})),
        ("find", ("people", {"age": {"$gt": [1, 2]}})),
        ("patch", ("people", None, {"created": True}, {"age": {"$in": "no list"}})),
        ("patch", ("people", "one", "two", "three", "four")),
        ("find", ("people", ["not", "an", "object"])),
        ("get", ("people", {"id": 1}, {})),
        ("remove", ("people", [1, 2], {})),
        ("create", ("people", "a string", {})),
        ("create", ("people", {"name": ["not", "a", "name"]}, {})),
        ("create", ("people", b"\x00binary\xff", {})),
    ],
)
async def test_wrong_arguments_are_bad_requests(connect, event, args):
    client = await connect()
    answer = await client.error(event, *args)
    assert (answer["name"], answer["code"]) == ("BadRequest", 400)
    assert await client.call("find", "people", {}) == []


async def test_events_without_arguments_or_with_odd_names_get_errors(connect):
    client = await connect()
    assert (await client.error("find"))["message"] == "Invalid service path"
    odd = await client.error("constructor", "people", {}, {})
    assert odd["code"] == 405
    dunder = await client.error("__init__", "people", {}, {})
    assert dunder["code"] == 405
    for path in (5, None, ["people"], {"path": "people"}):
        assert await client.error("get", path, 1, {}) == {
            "name": "NotFound",
            "message": "Invalid service path",
            "code": 404,
            "className": "not-found",
        }

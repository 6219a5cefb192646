"""
The checks of a call's input hold over every transport: REST, and socket.io over websocket
and long-polling, written once and run over each. Nothing here may leave a traceback in the
server's log.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from django_services.query.codec import stringify
from tests.server.socketio.raw import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)

TRANSPORTS = ("rest", "websocket", "polling")
VERBS = {"find": "GET", "get": "GET", "create": "POST", "patch": "PATCH", "remove": "DELETE"}


@pytest.fixture(autouse=True)
def no_traceback_logged(caplog):
    """Fails the test when anything (the server, python-engineio, uvicorn) logs a traceback."""
    caplog.set_level(logging.INFO)
    yield
    tracebacks = [record for record in caplog.records if record.exc_info or record.exc_text]
    assert not tracebacks, [record.getMessage() for record in tracebacks]


async def answer(url: str, transport: str, method: str, path: str, *args: Any) -> Any:
    """The error object or the result of one call, as the transport carries it."""
    if transport != "rest":
        async with RawSocket.open(url, transport) as raw:
            ack = await raw.call(method, path, *args)
            # Still answering: the bad call neither closed nor stalled the socket.
            assert await raw.call("find", "people", {}) == [None, []]
        return ack[0] if len(ack) == 1 else ack[1]
    arguments = list(args)
    id = quote(str(arguments.pop(0)), safe="") if method in ("get", "patch", "remove") else None
    body = arguments.pop(0) if method in ("create", "patch") else None
    query = arguments.pop(0) if arguments else {}
    target = f"{url}/{quote(path)}" + (f"/{id}" if id is not None else "")
    string = stringify(query)
    if string:
        target += "?" + string
    data = None
    if body is not None:
        data = json.dumps(body).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            VERBS[method],
            target,
            data=data,
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        ) as response,
    ):
        return await response.json()


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth - 1):
        value = {"a": value}
    return {"name": "x", "extra": value}


def nested_and(depth: int) -> dict[str, Any]:
    query: dict[str, Any] = {"name": "x"}
    for _ in range(depth):
        query = {"$and": [query]}
    return query


SOCKETS = ("websocket", "polling")

#: A query string or a URL carries bytes, not a lone surrogate: those cases are the sockets'.
CASES = {
    "body-depth": (TRANSPORTS, ("create", "people", nested(40), {}), "nested too deeply"),
    "patch-body-depth": (TRANSPORTS, ("patch", "people", 1, nested(40), {}), "nested too deeply"),
    # A valid JavaScript string that no database stores (a plain service echoes it escaped).
    "lone-surrogate-in-data": (
        TRANSPORTS,
        ("create", "people", {"name": "\ud800"}, {}),
        "Surrogate characters are not allowed",
    ),
    "lone-surrogate-in-the-query": (SOCKETS, ("find", "people", {"name": "\ud800"}), "text"),
    "lone-surrogate-in-the-id": (SOCKETS, ("get", "people", "\ud800", {}), "text"),
    "query-depth-250": (SOCKETS, ("find", "people", nested_and(250)), "nested too deeply"),
    "query-depth-8": (TRANSPORTS, ("find", "people", nested_and(8)), "nested too deeply"),
    "query-list-over-1000": (
        TRANSPORTS,
        ("find", "people", {"name": {"$in": ["x"] * 1001}}),
        "1000",
    ),
    "query-values-over-1000": (
        TRANSPORTS,
        ("find", "people", {f"field{n}": "x" for n in range(1001)}),
        "1000",
    ),
    "unknown-operator": (
        TRANSPORTS,
        ("find", "people", {"name": {"$regex": ".*"}}),
        "Invalid query parameter",
    ),
}


@pytest.mark.parametrize(
    ("transport", "case"),
    [(transport, case) for case, (over, *_) in CASES.items() for transport in over],
)
async def test_bad_input_is_a_bad_request_over_every_transport(live_socket_server, transport, case):
    _, call, message = CASES[case]
    error = await answer(live_socket_server.url, transport, *call)
    assert (error["name"], error["code"]) == ("BadRequest", 400), error
    assert message in error["message"], error
    # The answer never echoes the input back at length.
    assert len(json.dumps(error)) < 1000


@pytest.mark.parametrize("transport", ("websocket", "polling"))
async def test_a_path_out_of_latin_1_is_answered(live_socket_server, transport):
    # Answered as Feathers answers it: the path's last part is an id that `find` ignores.
    assert await answer(live_socket_server.url, transport, "find", "people/\uff11", {}) == []


@pytest.mark.parametrize("transport", ("websocket", "polling"))
async def test_a_number_json_cannot_hold_is_refused(live_socket_server, transport):
    async with RawSocket.open(live_socket_server.url, transport) as raw:
        await raw.send('421["create","people",{"name":"x","age":NaN},{}]')
        error = (await raw.ack(1))[0]
        assert (error["name"], error["code"]) == ("BadRequest", 400), error
        assert await raw.call("find", "people", {}) == [None, []]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_data_over_the_body_size_limit_is_refused_over_every_transport(
    live_socket_server, transport, settings
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    error = await answer(
        live_socket_server.url, transport, "create", "people", {"name": "x" * 2000}, {}
    )
    assert (error["name"], error["code"]) == ("BadRequest", 400), error
    assert error["message"] == "The request body is too large: at most 1000 bytes are allowed."
    assert await answer(live_socket_server.url, transport, "find", "people", {}) == []

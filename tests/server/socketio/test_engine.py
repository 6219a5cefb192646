"""
Frames no socket.io client sends get a clean close of their session, never silence nor a
traceback; long-polling carries as much as socket.io's own server accepts.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time

import aiohttp
import pytest

from tests.server.socketio.conftest import LiveSocketServer
from tests.server.socketio.raw import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_traceback_logged(caplog):
    """Fails the test when anything (the server, python-engineio, uvicorn) logs a traceback."""
    caplog.set_level(logging.INFO)
    yield
    tracebacks = [record for record in caplog.records if record.exc_info or record.exc_text]
    assert not tracebacks, [record.getMessage() for record in tracebacks]


def binary(transport: str, data: bytes) -> str | bytes:
    """An attachment as the transport carries it (base64 in a polling payload)."""
    return data if transport == "websocket" else "b" + base64.b64encode(data).decode()


def frames(transport: str, case: str) -> list[str | bytes]:
    event = '["create","people",{"_placeholder":true,"num":%d},{}]'
    return {
        "empty-packet": ["3\x1e"] if transport == "polling" else [""],
        "unknown-engine-io-type": ["9"],
        # A client pings only to probe an upgrade (engine.io: "invalid heartbeat direction").
        "ping-from-a-client": ["2"],
        "ping-storm": ["2"] * 50,
        "engine-io-type-not-a-digit": ["x42"],
        "placeholder-out-of-range": ["451-" + event % 5, binary(transport, b"\x00")],
        "placeholder-not-a-number": [
            '451-["create","people",{"_placeholder":true,"num":"a"}]',
            binary(transport, b"\x00"),
        ],
        "too-many-attachments": ["4511-" + event % 0],
        "attachments-over-the-size-limit": [
            "4510-" + event % 0,
            *[binary(transport, b"\x00" * 600_000)] * 2,
        ],
    }[case]


@pytest.mark.parametrize("transport", ("websocket", "polling"))
@pytest.mark.parametrize(
    "case",
    [
        "empty-packet",
        "unknown-engine-io-type",
        "ping-from-a-client",
        "ping-storm",
        "engine-io-type-not-a-digit",
        "placeholder-out-of-range",
        "placeholder-not-a-number",
        "too-many-attachments",
        "attachments-over-the-size-limit",
    ],
)
async def test_a_frame_no_client_sends_closes_its_session(live_socket_server, transport, case):
    async with RawSocket.open(live_socket_server.url, transport) as raw:
        for frame in frames(transport, case):
            # Over polling, each in its own POST, as a client sends attachments.
            await raw.send(frame)
        assert await raw.closed()
    async with RawSocket.open(live_socket_server.url, transport) as other:
        assert await other.call("find", "people", {}) == [None, []]


async def test_invalid_utf_8_in_a_polling_payload_closes_its_session(live_socket_server):
    async with RawSocket.open(live_socket_server.url, "polling") as raw:
        assert await raw.send(b'42["find","\xff\xfe"]') == 400
        assert await raw.closed()


async def test_a_polling_payload_of_many_packets_is_answered_in_full(live_socket_server):
    async with RawSocket.open(live_socket_server.url, "polling") as raw:
        calls = [f'42{n}["find","people",{{}}]' for n in range(30)]
        assert await raw.send(*calls) == 200
        acks = {await raw.receive() for _ in calls}
        assert acks == {f"43{n}[null,[]]" for n in range(30)}


async def test_a_polling_payload_over_the_limit_is_refused_and_closes_its_session(
    services_settings, transactional_db
):
    server = LiveSocketServer()
    server.start()
    try:
        async with RawSocket.open(server.url, "polling") as raw:
            try:
                status = await asyncio.wait_for(raw.send("4" + "x" * 1_500_000), 10)
            except aiohttp.ClientError:
                status = 413  # the server answered and closed before the body was sent
            assert status == 413
            assert await raw.closed()
            async with aiohttp.ClientSession() as session, session.get(server.url) as response:
                assert response.status < 500
    finally:
        started = time.monotonic()
        server.stop()
        # The server stops at once: nothing is left waiting on the refused payload.
        assert not server.thread.is_alive()
        assert time.monotonic() - started < 10


async def test_the_server_stops_at_once_with_a_long_poll_waiting(
    services_settings, transactional_db
):
    server = LiveSocketServer(longest_poll=1)
    server.start()
    try:
        async with RawSocket.open(server.url, "polling") as raw:
            assert await raw.call("find", "people", {}) == [None, []]
            # The client's long-poll is waiting for something to send (25 s pings) as the
            # server is told to stop.
            started = time.monotonic()
            await asyncio.get_running_loop().run_in_executor(None, server.stop)
            assert not server.thread.is_alive()
            assert time.monotonic() - started < 5
    finally:
        server.stop()

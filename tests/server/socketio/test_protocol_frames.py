"""
socket.io packets no well-behaved client sends, over both transports: each closes its
connection as socket.io's server does (a "parse error", or a packet its state refuses), or is
dropped as socket.io drops it, with at most one log line per connection and never a
traceback, however many bad frames follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging

import aiohttp
import engineio
import pytest
import socketio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.socketio.raw import RawSocket, logged

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]

TRANSPORTS = ("websocket", "polling")
PLACEHOLDER = '{"_placeholder":true,"num":0}'


@pytest.fixture
def records(live_socket_server):
    """
    The records logged during the test, once uvicorn has configured its loggers (which takes
    their handlers off); none may carry a traceback.
    """
    with logged() as records:
        yield records
    tracebacks = [record.getMessage() for record in records if record.exc_info or record.exc_text]
    assert not tracebacks, tracebacks


def warnings(records: list[logging.LogRecord]) -> list[str]:
    """
    The warnings and errors logged, but python-engineio's for a request of a closed session,
    which it logs as an error once a server (then at INFO): a polling client's last poll.
    """
    return [
        record.getMessage()
        for record in records
        if record.levelno >= logging.WARNING
        and not (record.name == "engineio.server" and record.msg.startswith("Invalid session"))
    ]


def closing(raw: RawSocket, case: str) -> list[str | bytes]:
    """Frames socket.io's parser refuses ("parse error"): the connection is closed."""
    return {
        "empty-message": ["4"],
        "connect-with-auth-not-an-object": ['40"token"'],
        "disconnect-with-a-payload": ['41{"reason":1}'],
        "event-without-payload": ["42"],
        "ack-without-payload": ["43"],
        "ack-without-arguments": ["431"],
        "ack-not-a-list": ["430{}"],
        "connect-error-from-a-client": ['44{"message":"no"}'],
        "bare-connect-error": ["44"],
        "binary-event-without-payload": ["45"],
        "binary-event-without-attachments": ["450-"],
        "binary-ack-without-payload": ["46"],
        "binary-ack-nobody-waits-for": [f"461-1[{PLACEHOLDER}]", raw.attachment(b"\x00")],
        "unknown-socket-io-type": ["47"],
        "event-in-a-binary-frame": [raw.attachment(b'42["find","people",{}]')],
        "attachment-without-binary-packet": [raw.attachment(b"\x00\x01")],
        "text-where-an-attachment-is-due": [
            f'451-["create","people",{PLACEHOLDER},{{}}]',
            '42["find","people",{}]',
        ],
        # socket.io's "invalid state": packets the connection's namespaces refuse.
        "connect-again": ["40"],
        "event-for-a-namespace-never-joined": ['42/admin,["find","people",{}]'],
        "ack-for-a-namespace-never-joined": ["43/admin,1[]"],
        "event-after-a-namespace-disconnect": ["41", '421["find","people",{}]'],
    }[case]


CLOSING = [
    "empty-message",
    "connect-with-auth-not-an-object",
    "disconnect-with-a-payload",
    "event-without-payload",
    "ack-without-payload",
    "ack-without-arguments",
    "ack-not-a-list",
    "connect-error-from-a-client",
    "bare-connect-error",
    "binary-event-without-payload",
    "binary-event-without-attachments",
    "binary-ack-without-payload",
    "binary-ack-nobody-waits-for",
    "unknown-socket-io-type",
    "event-in-a-binary-frame",
    "attachment-without-binary-packet",
    "text-where-an-attachment-is-due",
    "connect-again",
    "event-for-a-namespace-never-joined",
    "ack-for-a-namespace-never-joined",
    "event-after-a-namespace-disconnect",
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("case", CLOSING)
async def test_a_packet_socket_io_refuses_closes_its_connection(
    live_socket_server, records, transport, case
):
    async with RawSocket.open(live_socket_server.url, transport) as raw:
        await send_all(raw, closing(raw, case))
        # Frames after the close are dropped unread, and log nothing more.
        for n in range(20):
            await send_all(raw, [f'42{n}["find","people",{{}}]', "4"])
        assert await raw.closed()
    assert len(warnings(records)) == 1, warnings(records)
    async with RawSocket.open(live_socket_server.url, transport) as other:
        assert await other.call("find", "people", {}) == [None, []]


# A parse error, and a packet the connection's state refuses.
@pytest.mark.parametrize("frame", ["42", "40"], ids=["event-without-payload", "connect-again"])
async def test_a_polling_post_that_closes_its_session_is_answered_with_no_poll_waiting(
    live_socket_server, records, frame
):
    # A client between two polls (it has just been answered) when its packet closes the
    # session: the POST is answered all the same, and its next poll finds the session gone.
    base = f"{live_socket_server.url}/socket.io/?EIO=4&transport=polling"
    async with aiohttp.ClientSession() as http:
        async with http.get(base) as response:
            url = f"{base}&sid={json.loads((await response.text())[1:])['sid']}"

        async def post(frame: str) -> int:
            async with http.post(url, data=frame) as response:
                await response.read()
                return response.status

        assert await post("40") == 200
        async with http.get(url) as response:
            assert (await response.text()).startswith("40{")
        assert await asyncio.wait_for(post(frame), 10) == 200
        async with http.get(url) as response:
            assert response.status == 400
    assert len(warnings(records)) == 1, warnings(records)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_an_ack_nobody_waits_for_is_dropped_without_a_word(
    live_socket_server, records, transport
):
    async with RawSocket.open(live_socket_server.url, transport) as raw:
        for n in range(50):
            await raw.send(f"43{n}[1]", f"43{n}[]")
        # The barrier: the next packet the server sends is this call's answer.
        assert await raw.call("find", "people", {}) == [None, []]
    assert warnings(records) == []


def flood(raw: RawSocket, index: int) -> list[str | bytes]:
    """Bad frames of every kind: those socket.io drops, then those that close, the first of
    them another for each socket (a ping storm, a frame over the limit, ...)."""
    dropped = ["431[1]", "432[]"]
    first = [
        ["2"] * 20,
        ["4" + "x" * 1_100_000],
        *(closing(raw, case) for case in CLOSING),
    ][index]
    fatal = [frame for case in CLOSING for frame in closing(raw, case)]
    return dropped * 30 + first + fatal


async def send_all(raw: RawSocket, frames: list[str | bytes]) -> None:
    for frame in frames:
        # A polling POST over the limit may be answered (413) before it is sent in full.
        with contextlib.suppress(aiohttp.ClientError):
            await raw.send(frame)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_flood_of_bad_frames_logs_one_line_a_connection_and_no_traceback(
    live_socket_server, records, transport
):
    sockets = 5

    async def attack(index: int) -> int:
        async with RawSocket.open(live_socket_server.url, transport) as raw:
            frames = flood(raw, index)
            await send_all(raw, frames)
            assert await raw.closed()
            return len(frames)

    sent = await asyncio.gather(*(attack(index) for index in range(sockets)))
    assert sum(sent) >= 400
    # A line a connection, however many frames it sent.
    assert len(warnings(records)) <= sockets, warnings(records)
    async with RawSocket.open(live_socket_server.url, transport) as good:
        assert await good.call("find", "people", {}) == [None, []]


# Random frames: socket.io-looking text (types, ids, namespaces, JSON scraps), any text, and
# any bytes (binary frames over websocket, base64 attachments over polling).
SCRAPS = ["0", "1", "2", "3", "4", "5", "6", "-", "/", "/admin,", ",", "[", "]", "{", "}", '"']
FRAME = st.one_of(
    st.lists(st.sampled_from([*SCRAPS, '"find"', '"people"', "null", "1"]), max_size=12).map(
        lambda scraps: "4" + "".join(scraps)
    ),
    st.text(max_size=30),
    st.binary(max_size=30),
)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(FRAME, min_size=10, max_size=20), transport=st.sampled_from(TRANSPORTS))
def test_random_frames_never_log_a_traceback(live_socket_server, frames, transport):
    async def session() -> None:
        async with RawSocket.open(live_socket_server.url, transport) as raw:
            for frame in frames:
                if isinstance(frame, bytes):
                    frame = raw.attachment(frame)
                elif not frame:
                    continue
                await send_all(raw, [frame])
        # A good client is served afterwards.
        async with RawSocket.open(live_socket_server.url, transport) as good:
            assert await good.call("find", "people", {}) == [None, []]

    with logged() as records:
        asyncio.run(session())
    assert not [record.getMessage() for record in records if record.exc_info or record.exc_text]


def test_the_internals_the_packet_checks_build_on_are_there():
    # An empty message is never decoded, and reads as an event without arguments.
    assert "if encoded_packet:" in inspect.getsource(socketio.packet.Packet.__init__)
    handle = inspect.getsource(socketio.AsyncServer._handle_eio_message)
    assert "self.packet_class(encoded_packet=data)" in handle
    assert "pkt.add_attachment(data)" in handle
    # The warnings a dropped packet would log, and what tells whether an ack is awaited.
    assert "Unknown callback received" in inspect.getsource(socketio.AsyncManager.trigger_callback)
    assert "is not connected to namespace" in inspect.getsource(socketio.AsyncServer._handle_event)
    assert socketio.AsyncManager().callbacks == {}
    # A session being closed says so before its close awaits anything.
    session = engineio.async_socket.AsyncSocket(engineio.AsyncServer(), "sid")
    assert session.closing is False and session.closed is False
    close = inspect.getsource(engineio.async_socket.AsyncSocket.close)
    assert close.index("self.closing = True") < close.index("await ")

"""
The lighter websockets protocol for uvicorn (`server.socketio.uvicorn_ws`), which reaches into
uvicorn's sans-I/O protocol: these run against the installed uvicorn, the lowest and the
newest pyproject.toml allows in CI (from 0.35, the first with that protocol).
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import re
import textwrap
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn.protocols.websockets.websockets_sansio_impl")

from uvicorn.protocols.websockets import websockets_sansio_impl

from django_services.server.socketio import engine, fanout, uvicorn_ws
from tests.server.socketio.conftest import Client, LiveSocketServer
from tests.server.socketio.raw import RawSocket, logged
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)


class RecordingProtocol(uvicorn_ws.WebSocketProtocol):
    """The protocol under test, noting each handshake's request and (weakly) its response."""

    handshakes: list[tuple[Any, weakref.ref[Any]]] = []

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        RecordingProtocol.handshakes.append((event, weakref.ref(self.response)))


@pytest.fixture
def server(services_settings, transactional_db) -> Iterator[LiveSocketServer]:
    RecordingProtocol.handshakes = []
    with LiveSocketServer(ws=RecordingProtocol) as live:
        yield live


def connections(server: LiveSocketServer) -> list[Any]:
    return list(server.server.server_state.connections)


async def test_a_connection_works_and_lets_go_of_its_handshake(server):
    client = await Client(server.url, "websocket").connect({"X-Large": "x" * 4096})
    try:
        person = await client.call("create", "people", {"name": "Ada"}, {})
        assert person["name"] == "Ada"
        sio = server.application.server.sio
        await asyncio.wrap_future(
            asyncio.run_coroutine_threadsafe(sio.emit("tick", {"n": 1}), server.loop)
        )
        await eventually_async(lambda: ("tick", {"n": 1}) in client.events)
        [protocol] = connections(server)
        assert isinstance(protocol, RecordingProtocol)
        assert isinstance(protocol.queue, fanout.SocketQueue)
        assert isinstance(protocol.writable, uvicorn_ws.Writable)
        assert protocol.request is None and protocol.response is None
        [(request, response)] = RecordingProtocol.handshakes
        gc.collect()
        assert response() is None
        # websockets' parser keeps the request object: its headers are what weighed.
        assert not list(request.headers.raw_items())
    finally:
        await client.close()
    await eventually_async(lambda: not connections(server), message="the connection closes")


async def test_sockets_keep_their_calls_and_events_apart_and_in_order(server):
    clients = [await Client(server.url, "websocket").connect() for _ in range(3)]
    try:
        for n in range(3):
            for index, client in enumerate(clients):
                answer = await client.call("create", "people", {"name": f"{index}-{n}"}, {})
                assert answer["name"] == f"{index}-{n}"
        sio = server.application.server.sio
        for n in range(10):
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(sio.emit("tick", {"n": n}), server.loop)
            )
        await eventually_async(
            lambda: all(sum(e[0] == "tick" for e in c.events) == 10 for c in clients)
        )
        for client in clients:
            ticks = [data["n"] for event, data in client.events if event == "tick"]
            assert ticks == list(range(10))
    finally:
        await asyncio.gather(*(client.close() for client in clients))
    await eventually_async(lambda: not connections(server), message="the connections close")


async def test_writable_holds_waiters_until_set():
    writable = uvicorn_ws.Writable()
    assert writable.is_set() and await writable.wait()
    writable.clear()
    waiters = [asyncio.ensure_future(writable.wait()) for _ in range(2)]
    cancelled = asyncio.ensure_future(writable.wait())
    await asyncio.sleep(0)  # a turn of the loop: each waiter is parked on its future
    assert not any(waiter.done() for waiter in [*waiters, cancelled])
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    writable.set()
    assert await asyncio.gather(*waiters) == [True, True]
    assert writable._waiters is None


@pytest.mark.parametrize("ws", [RecordingProtocol, "websockets-sansio", "wsproto"])
async def test_a_text_frame_that_is_not_utf_8_closes_its_connection_without_a_traceback(
    services_settings, transactional_db, ws
):
    # Once uvicorn has configured its loggers (which takes their handlers off).
    with LiveSocketServer(ws=ws) as live, logged() as records:
        for frame in (b'42["find","\xff"]', "é".encode()[:1]):
            async with RawSocket.open(live.url, "websocket") as raw:
                await raw.send_text(frame)
                assert await raw.closed()
                if ws != "wsproto":  # wsproto's close has no code (uvicorn's own doing)
                    assert raw.close_code == 1007
        async with RawSocket.open(live.url, "websocket") as good:
            assert await good.call("find", "people", {}) == [None, []]
    assert not [record.getMessage() for record in records if record.exc_info]
    # A line a connection at most, for an attacker to write.
    assert len([record for record in records if record.levelno >= logging.WARNING]) <= 2


def _uses(attribute: str) -> set[str]:
    source = inspect.getsource(websockets_sansio_impl)
    return set(re.findall(rf"self\.{attribute}\.(\w+)", source))


def test_uvicorns_protocol_uses_only_what_the_replacements_provide():
    assert _uses("queue") <= {"put_nowait", "get", "empty"}
    assert _uses("writable") <= {"wait", "set", "clear", "is_set"}
    # The handshake's request and response are read only while the handshake is under way.
    readers = {
        name
        for name, function in inspect.getmembers(
            websockets_sansio_impl.WebSocketsSansIOProtocol, inspect.isfunction
        )
        if re.search(r"self\.(request|response)\b", inspect.getsource(function))
    }
    assert readers <= {"handle_connect", "send"}


def test_uvicorns_receive_is_the_one_reimplemented():
    source = textwrap.dedent(
        inspect.getsource(websockets_sansio_impl.WebSocketsSansIOProtocol.receive)
    )
    body = [line.strip() for line in source.splitlines()[1:] if line.strip()]
    assert body == [
        "message = await self.queue.get()",
        "if self.read_paused and self.queue.empty():",
        "self.read_paused = False",
        "self.transport.resume_reading()",
        "return message",
    ]


def test_uvicorns_record_of_a_frame_not_utf_8_is_the_one_replaced():
    protocol = websockets_sansio_impl.WebSocketsSansIOProtocol
    assert 'logging.getLogger("uvicorn.error")' in inspect.getsource(protocol.__init__)
    handler = inspect.getsource(protocol.send_receive_event_to_app)
    assert f"self.logger.exception({engine._INVALID_UTF_8!r})".replace("'", '"') in handler
    assert "self.conn.send_close(1007)" in handler

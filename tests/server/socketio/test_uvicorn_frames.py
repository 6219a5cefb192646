"""
Events written straight to each websocket's transport (`server.socketio.uvicorn_frames`),
which reads uvicorn's websocket protocols: these run against the installed uvicorn, websockets
and wsproto, the lowest and the newest pyproject.toml allows in CI, under each protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import json
import re
import warnings
from typing import Any

import pytest

from django_services.server.socketio import engine, uvicorn_frames
from tests.server.socketio.conftest import LiveSocketServer
from tests.server.socketio.protocols import PROTOCOLS, SANSIO
from tests.server.socketio.raw import RawSocket, StalledClient
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)


def on_loop(live: LiveSocketServer, coroutine: Any) -> Any:
    """Run `coroutine` on the server's loop, as the server's own events are."""
    return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, live.loop))


def emit(live: LiveSocketServer, event: str, data: Any) -> Any:
    """The manager's emit to every socket, `data` a tuple spread into several arguments."""
    manager = live.application.server.sio.manager
    return on_loop(live, manager.emit(event, data, "/", to=None))


def engine_sockets(live: LiveSocketServer) -> list[Any]:
    return list(live.application.server.sio.eio.sockets.values())


@pytest.mark.parametrize("ws", PROTOCOLS)
async def test_an_events_frame_is_written_to_each_websocket_and_queued_for_polling(
    services_settings, transactional_db, ws
):
    with LiveSocketServer(ws=ws) as live:
        async with contextlib.AsyncExitStack() as stack:
            raws = [
                await stack.enter_async_context(RawSocket.open(live.url, transport))
                for transport in ("websocket", "websocket", "polling")
            ]
            # A logged event: its offset, the same for every recipient, is its last argument.
            for n in range(3):
                await emit(live, "people created", ({"id": n, "name": "Ada"}, f"17-{n}"))
            packets = []
            for raw in raws:  # (Python 3.10 has no `await` in a nested comprehension)
                packets.append([await raw.receive() for _ in range(3)])
            assert packets[0] == packets[1] == packets[2]
            assert [json.loads(packet[2:]) for packet in packets[0]] == [
                ["people created", {"id": n, "name": "Ada"}, f"17-{n}"] for n in range(3)
            ]
            # Calls and events keep their order on each socket.
            for raw in raws:
                assert await raw.call("find", "people", {}) == [None, []]
            await emit(live, "people removed", {"id": 0})
            for raw in raws:
                assert json.loads((await raw.receive())[2:]) == ["people removed", {"id": 0}]
            writers = [s.__dict__.get("direct_writer") for s in engine_sockets(live)]
            direct = [w for w in writers if isinstance(w, uvicorn_frames.DirectWriter)]
            assert len(direct) == 2 and uvicorn_frames.UNAVAILABLE not in direct
            # With a read rule, as logged events are sent: the readers alone, the frame shared.
            manager = live.application.server.sio.manager
            sids = [sid for sid, _ in manager.get_participants("/", None)]
            # The check made when the write committed: anonymous readers but the first.
            readers = {sid: (None, index > 0) for index, sid in enumerate(sids)}
            await on_loop(
                live,
                manager.emit(
                    "people patched", ({"id": 7}, "18"), "/", to=None, read={}, checked=readers
                ),
            )
            await emit(live, "people removed", {"id": 9})
            patched = ["people patched", {"id": 7}, "18"]
            barrier = ["people removed", {"id": 9}]
            got = []
            for raw in raws:
                packets = [json.loads((await raw.receive())[2:])]
                if packets[0] != barrier:
                    packets.append(json.loads((await raw.receive())[2:]))
                got.append(packets)
            assert sorted(got) == sorted([[barrier], [patched, barrier], [patched, barrier]])


@pytest.mark.parametrize("ws", PROTOCOLS)
async def test_a_socket_with_permessage_deflate_gets_its_frames_from_its_protocol(
    services_settings, transactional_db, ws
):
    # uvicorn negotiates permessage-deflate by default (the test servers keep its defaults).
    with LiveSocketServer(ws=ws) as live:
        async with (
            RawSocket.open(live.url, "websocket", compress=15) as deflated,
            RawSocket.open(live.url, "websocket") as plain,
        ):
            for n in range(3):
                await emit(live, "people created", ({"id": n, "text": "x" * 300 * n}, str(n)))
            for raw in (deflated, plain):
                assert [json.loads((await raw.receive())[2:]) for _ in range(3)] == [
                    ["people created", {"id": n, "text": "x" * 300 * n}, str(n)] for n in range(3)
                ]
            writers = {s.__dict__.get("direct_writer") for s in engine_sockets(live)}
            assert uvicorn_frames.UNAVAILABLE in writers
            assert len(writers) == 2


@pytest.mark.parametrize("ws", PROTOCOLS)
async def test_a_socket_that_stops_reading_gets_every_event_in_order_when_it_reads_again(
    services_settings, transactional_db, ws
):
    with LiveSocketServer(ws=ws) as live:
        stalled = await StalledClient.connect(live.port)
        try:
            [slow] = engine_sockets(live)
            await stall_then_read(live, stalled, slow)
        finally:
            stalled.writer.close()


def flow_control(live: LiveSocketServer) -> bool:
    """
    Whether the connections' protocol pauses its writes on a full transport: uvicorn 0.35's
    sans-I/O one does not, its `send` never waits.
    """
    return any(
        "pause_writing" in vars(cls)
        for cls in live.server.config.ws_protocol_class.__mro__
        if cls.__module__.startswith(("uvicorn", "websockets", "django_services"))
    )


async def stall_then_read(live: LiveSocketServer, stalled: StalledClient, slow: Any) -> None:
    big = "x" * 100_000
    async with RawSocket.open(live.url, "websocket") as reading:
        paused = flow_control(live)
        sent = 0
        # Until the stalled socket's frames wait in its queue, its transport full; without
        # flow control, its protocol's own `send` would not wait either: the transport holds
        # them.
        while slow.queue.empty() if paused else sent < 60:
            assert sent < 400, "the stalled socket's transport never filled"
            await emit(live, "tick", ({"n": sent, "big": big}, str(sent)))
            sent += 1
            # The other socket keeps getting its events meanwhile.
            assert json.loads((await reading.receive())[2:])[0:1] == ["tick"]
        for n in range(sent, sent + 5):
            await emit(live, "tick", ({"n": n, "big": big}, str(n)))
        for _ in range(5):
            await reading.receive()
        received = [json.loads((await stalled.text())[2:]) for _ in range(sent + 5)]
        assert [item[1]["n"] for item in received] == list(range(sent + 5))
        assert [item[2] for item in received] == [str(n) for n in range(sent + 5)]
        # Drained, the socket is written to directly again.
        await eventually_async(lambda: slow.queue.idle(), message="the writer waits again")
        await emit(live, "tick", ({"n": -1}, "last"))
        assert json.loads((await stalled.text())[2:]) == ["tick", {"n": -1}, "last"]


@pytest.mark.parametrize("length", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_is_the_one_websockets_serializes(length):
    frames = pytest.importorskip("websockets.frames")
    payload = b"a" * length
    expected = frames.Frame(frames.Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert uvicorn_frames.text_frame(payload) == expected


async def test_a_websocket_not_served_by_uvicorn_is_left_to_its_server():
    async def receive() -> dict[str, Any]:
        return {"type": "websocket.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        pass

    assert uvicorn_frames.writer(engine.WebSocketGuard(receive, send).send) is (
        uvicorn_frames.UNAVAILABLE
    )
    assert uvicorn_frames.writer(send) is uvicorn_frames.UNAVAILABLE
    assert not uvicorn_frames.UNAVAILABLE.write(b"\x81\x00")


def source_of(module: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy protocol's deprecation, by both packages
        return inspect.getsource(importlib.import_module(module))


@pytest.mark.parametrize("module", sorted(uvicorn_frames.ATTRIBUTES))
def test_uvicorns_protocols_have_what_the_writers_read(module):
    if module.endswith("sansio_impl") and not SANSIO:
        pytest.skip("this uvicorn has no sans-I/O websockets protocol")
    source = source_of(module)
    if module.endswith("websockets_impl"):
        # The legacy protocol's state, extensions and flow control are websockets' own.
        legacy = source_of("websockets.legacy.protocol")
        for name in ("state", "extensions", "_paused"):
            assert re.search(rf"self\.{name}\b[^=\n]*= ", legacy), name
        assert re.search(r"frame\.write\(\s*self\.transport\.write", legacy)
        names = set(uvicorn_frames.ATTRIBUTES[module]) - {"state", "extensions", "_paused"}
    else:
        names = set(uvicorn_frames.ATTRIBUTES[module])
        # A message is one write of what the connection serialized.
        assert "self.transport.write(" in source
    for name in names:
        assert re.search(rf"self\.{name}\b[^=\n]*= ", source), name

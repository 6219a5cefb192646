"""
The bound on what waits to be sent to one connection (`server.socketio.outgoing`): a client
that stops reading, over a websocket under each uvicorn protocol or by long-polling, is cut off
once more than `SOCKETIO_OUTGOING_LIMIT` bytes wait for it, logged once, while another client
of the same server gets every event, in order, as it is sent; cut off, it reconnects and
recovers what it missed from the event log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from socket import SO_SNDBUF, SOL_SOCKET
from typing import Any

import aiohttp
import pytest
from asgiref.sync import sync_to_async

from django_services.models import SocketSession
from django_services.server.socketio import outgoing, uvicorn_frames
from tests.interop.conformance.services import PersonService
from tests.server.socketio.conftest import Client, LiveSocketServer
from tests.server.socketio.protocols import UNPAUSED
from tests.server.socketio.raw import RawSocket, StalledClient, logged
from tests.waiting import eventually_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_tracebacks")]

LIMIT = 128 * 1024
BIG = "x" * 40_000
#: The events that may be sent before the bound is reached: the kernel's buffers on loopback
#: take a few MiB first.
MOST_EVENTS = 400


@pytest.fixture
def bounded(services_settings, settings):
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_OUTGOING_LIMIT": LIMIT}


def on_loop(live: LiveSocketServer, coroutine: Any) -> Any:
    """Run `coroutine` on the server's loop, as the server's own events are."""
    return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, live.loop))


def emit(live: LiveSocketServer, event: str, data: Any) -> Any:
    """The manager's emit to every socket (the fan-out), `data` a tuple of arguments."""
    manager = live.application.server.sio.manager
    return on_loop(live, manager.emit(event, data, "/", to=None))


async def outgoing_of(socket: Any) -> int:
    return outgoing.outgoing(socket)


def cut_warnings(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    return [
        record
        for record in records
        if record.levelno == logging.WARNING and "SOCKETIO_OUTGOING_LIMIT" in record.getMessage()
    ]


async def tick(live: LiveSocketServer, n: int, reading: RawSocket) -> None:
    """Emit tick `n`; the reading client gets it next, at once."""
    await emit(live, "tick", ({"n": n, "big": BIG}, str(n)))
    packet = json.loads((await reading.receive(timeout=5))[2:])
    assert (packet[0], packet[1]["n"], packet[2]) == ("tick", n, str(n))


async def until_cut(
    live: LiveSocketServer, slow: Any, reading: RawSocket, records: list[logging.LogRecord]
) -> int:
    """Tick until the slow socket is cut off, the bound held at each: the ticks sent."""
    frame = len(uvicorn_frames.text_frame(b"42" + json.dumps(["tick", {"big": BIG}]).encode()))
    sent = 0
    while not cut_warnings(records):
        assert sent < MOST_EVENTS, "the slow socket was never cut off"
        await tick(live, sent, reading)
        sent += 1
        assert await on_loop(live, outgoing_of(slow)) <= LIMIT + 2 * frame
    return sent


async def read_to_the_end(stalled: StalledClient) -> list[int]:
    """The ticks a stalled client gets once it reads again, until its connection ends."""
    ticks = []
    with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
        while True:
            ticks.append(json.loads((await asyncio.wait_for(stalled.text(), 10))[2:])[1]["n"])
    return ticks


@pytest.mark.parametrize("ws", UNPAUSED)
async def test_a_websocket_that_stops_reading_is_cut_off_while_another_gets_every_event(
    bounded, transactional_db, ws
):
    with LiveSocketServer(ws=ws) as live:
        stalled = await StalledClient.connect(live.port)
        try:
            [slow] = live.application.server.sio.eio.sockets.values()
            async with RawSocket.open(live.url, "websocket") as reading:
                with logged() as records:
                    sent = await until_cut(live, slow, reading, records)
                    # The fan-out goes on past the cut (a barrier): nothing more is logged.
                    for n in range(sent, sent + 3):
                        await tick(live, n, reading)
                assert sent * len(BIG) > LIMIT
                [warning] = cut_warnings(records)
                assert slow.sid in warning.getMessage()
                await eventually_async(lambda: slow.closed, message="the server closes it")
                # What reached the stalled client before the cut, in order; then its end.
                got = await read_to_the_end(stalled)
                assert got == list(range(len(got))) and len(got) < sent
                assert await on_loop(live, outgoing_of(slow)) == 0
        finally:
            stalled.writer.close()


async def test_a_polling_client_that_stops_polling_is_cut_off(bounded, live_socket_server):
    live = live_socket_server
    base = f"{live.url}/socket.io/?EIO=4&transport=polling"
    async with aiohttp.ClientSession() as session, RawSocket.open(live.url, "websocket") as reading:
        async with session.get(base) as response:
            sid = json.loads((await response.text())[1:])["sid"]
        url = f"{base}&sid={sid}"
        async with session.post(url, data="40") as response:
            assert response.status == 200
        async with session.get(url) as response:
            assert (await response.text()).startswith("40{")
        # No more polls from here on.
        slow = live.application.server.sio.eio.sockets[sid]
        with logged() as records:
            sent = await until_cut(live, slow, reading, records)
            await tick(live, sent, reading)
        assert len(cut_warnings(records)) == 1
        # Its client's next poll finds its session gone, and it connects again.
        async with session.get(url) as response:
            assert response.status == 400
        assert sid not in live.application.server.sio.eio.sockets


async def test_the_bound_holds_on_python_socketios_own_path(bounded, live_socket_server):
    live = live_socket_server
    stalled = await StalledClient.connect(live.port)
    try:
        [slow] = live.application.server.sio.eio.sockets.values()
        sio = live.application.server.sio
        with logged() as records:
            for n in range(MOST_EVENTS):
                # A binary attachment: python-socketio's emit, two packets per socket.
                await on_loop(live, sio.emit("blob", {"n": n, "bytes": BIG.encode()}))
                if cut_warnings(records):
                    break
                assert await on_loop(live, outgoing_of(slow)) <= LIMIT + 2 * len(BIG)
        assert len(cut_warnings(records)) == 1
        await eventually_async(lambda: slow.closed, message="the server closes it")
    finally:
        stalled.writer.close()


class UncheckedPersonService(PersonService):
    """People whose events every connection may hear: no read check per event."""

    event_readers = "unchecked"


@pytest.fixture
def publishing(services_settings, settings):
    configured = settings.DJANGO_SERVICES
    settings.DJANGO_SERVICES = {
        **configured,
        "SOCKETIO_OUTGOING_LIMIT": 16 * 1024,
        "SERVICES": {**configured["SERVICES"], "people": f"{__name__}.UncheckedPersonService"},
        # `people` events reach anonymous connections.
        "SOCKETIO_PUBLISHER": "tests.server.socketio.realtime.RevocationPublisher",
    }


async def narrow(socket: Any) -> None:
    """
    Give the server's end of a websocket small buffers, as a slow network would: the kernel
    then takes a few KiB of its events, where on loopback it takes a few MiB, and its
    transport pauses at 4 KiB.
    """
    protocol = socket.websocket_send.__self__.channel.__self__
    protocol.transport.get_extra_info("socket").setsockopt(SOL_SOCKET, SO_SNDBUF, 4096)
    protocol.transport.set_write_buffer_limits(high=4096)


async def test_a_client_cut_off_recovers_every_event_it_missed(publishing, live_socket_server):
    live = live_socket_server
    server = live.application.server
    writer = await Client(live.url, "websocket").connect()
    # An event delivered before the slow client connects: its session starts after it.
    await writer.call("create", "people", {"name": "before"}, {})
    await eventually_async(lambda: writer.events, message="the first event arrives")
    stalled = await StalledClient.connect(live.port)
    again = None
    try:
        pid = stalled.connected_with["pid"]
        slow_sid = stalled.connected_with["sid"]
        [slow] = [s for s in server.sio.eio.sockets.values() if s.sid != writer.sio.eio.sid]
        await on_loop(live, narrow(slow))
        names: list[str] = []
        with logged() as records:
            while not cut_warnings(records):
                assert len(names) < 2_000, "the slow socket was never cut off"
                name = f"p{len(names):05d}-" + "y" * 80
                await writer.call("create", "people", {"name": name}, {})
                names.append(name)
        await eventually_async(
            lambda: slow_sid not in server.connections, message="the server forgets it"
        )
        # Kept as a lost connection's session, for its client's reconnect.
        await eventually_async(
            sync_to_async(SocketSession.objects.filter(lost_at__isnull=False).exists),
            message="its session is kept",
        )
        stalled.writer.close()
        # Its client connects again with its pid: every event it was not sent, in order, once.
        again = await Client(live.url, "websocket").connect(auth={"pid": pid})
        await writer.call("create", "people", {"name": "barrier"}, {})
        await eventually_async(
            lambda: ("people created", "barrier") in [(e, d["name"]) for e, d in again.events],
            message="the barrier event arrives",
        )
        assert again.pid == pid
        assert [data["name"] for _, data in again.events] == [*names, "barrier"]
    finally:
        stalled.writer.close()
        for client in (writer, again):
            if client is not None:
                await client.close()

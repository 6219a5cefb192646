"""
The fan-out of events (`server.socketio.fanout`), which reaches into python-socketio's and
python-engineio's internals: these run against the installed versions, the lowest and the
newest pyproject.toml allows in CI.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from django_services.server.socketio import fanout
from tests.server.socketio.conftest import LiveSocketServer
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)


def emit(live_socket_server: LiveSocketServer, *args: Any, **kwargs: Any) -> Any:
    """`sio.emit(...)` run on the server's loop, as the server's own events are."""
    server = live_socket_server.application.server
    future = asyncio.run_coroutine_threadsafe(server.sio.emit(*args, **kwargs), server.loop)
    return asyncio.wrap_future(future)


async def arrived(clients: list[Any], count: int) -> None:
    """Wait until every client holds `count` events."""
    await eventually_async(
        lambda: all(len(client.events) >= count for client in clients),
        message=f"{count} events reach every client",
    )


async def test_events_reach_every_socket_once_and_in_order_across_slices(
    connect, live_socket_server, monkeypatch
):
    assert isinstance(live_socket_server.application.server.sio.manager, fanout.Manager)
    # Five sockets in slices of two: each fan-out gives the loop a turn twice.
    monkeypatch.setattr(fanout, "SLICE", 2)
    clients = [await connect() for _ in range(5)]
    await asyncio.gather(*(emit(live_socket_server, "tick", {"n": n}) for n in range(10)))
    await arrived(clients, 10)
    for client in clients:
        assert client.events == [("tick", {"n": n}) for n in range(10)]
    sockets = live_socket_server.application.server.sio.eio.sockets.values()
    assert {type(socket.queue) for socket in sockets} == {fanout.SocketQueue}


class Handed:
    """A socket's direct writer, noting each frame written (the test's view of the fan-out)."""

    def __init__(self, writer: Any, written: list[Any], socket: Any) -> None:
        self.writer = writer
        self.written = written
        self.socket = socket

    def write(self, frame: bytes) -> bool:
        if self.writer.write(frame):
            self.written.append(self.socket)
            return True
        return False


async def test_a_fan_out_gives_the_loop_a_turn_between_slices(
    connect, live_socket_server, monkeypatch
):
    monkeypatch.setattr(fanout, "SLICE", 2)
    clients = [await connect() for _ in range(5)]
    sio = live_socket_server.application.server.sio
    # A first event: each websocket's writer is found, and written to directly after it.
    await emit(live_socket_server, "warm-up", {})
    await arrived(clients, 1)

    async def emit_with_a_waiting_callback() -> list[int]:
        sockets = [
            sio.eio.sockets[eio_sid] for _, eio_sid in sio.manager.get_participants("/", None)
        ]
        written: list[Any] = []
        for socket in sockets:
            if "direct_writer" in socket.__dict__:
                socket.direct_writer = Handed(socket.direct_writer, written, socket)
        handed: list[int] = []
        # Scheduled before the emit: it runs at the loop's first turn, which a fan-out that
        # held the loop would only give once every socket had its packet.
        asyncio.get_running_loop().call_soon(
            lambda: handed.extend(s.queue.qsize() + written.count(s) for s in sockets)
        )
        await sio.emit("probe", {})
        for socket in sockets:
            if isinstance(socket.__dict__.get("direct_writer"), Handed):
                socket.direct_writer = socket.direct_writer.writer
        return handed

    server = live_socket_server.application.server
    handed = await asyncio.wrap_future(
        asyncio.run_coroutine_threadsafe(emit_with_a_waiting_callback(), server.loop)
    )
    assert sorted(handed) == [0, 0, 0, 1, 1]
    await arrived(clients, 2)


async def test_skipped_sockets_and_binary_attachments_keep_python_socketios_meaning(
    connect, live_socket_server
):
    ada, bob = await connect(), await connect()
    await emit(live_socket_server, "note", {"to": "bob"}, skip_sid=ada.sio.get_sid("/"))
    # A binary attachment travels as several engine.io packets: python-socketio's own path.
    await emit(live_socket_server, "blob", {"bytes": b"\x00\x01"}, to=[bob.sio.get_sid("/")])
    # Sent after both: once ada has it, the note would have arrived before it.
    await emit(live_socket_server, "last", {})
    await arrived([ada, bob], 1)
    await arrived([bob], 3)
    assert ada.events == [("last", {})]
    assert bob.events == [("note", {"to": "bob"}), ("blob", {"bytes": b"\x00\x01"}), ("last", {})]


@pytest.fixture
def quick_pings(services_settings, transactional_db):
    server = LiveSocketServer(ping_interval=0.2, ping_timeout=0.2)
    server.start()
    yield server
    server.stop()


async def test_a_silent_websocket_is_closed_although_its_writer_waits_without_a_timer(
    quick_pings,
):
    url = quick_pings.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
    received: list[str] = []

    async def listen(ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            received.append(message.data)

    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_str("40")
        # Never answering the pings: the server must close the socket, which ends the
        # websocket handler only once its writer has ended.
        await asyncio.wait_for(listen(ws), 10)
    assert received[0].startswith("0{") and received[1].startswith("40{")
    assert "2" in received[2:]
    assert ws.closed
    sockets = quick_pings.application.server.sio.eio.sockets
    # The server marks its side closed once its handler has ended, which may be just after
    # the client saw the close.
    await eventually_async(
        lambda: all(socket.closed for socket in list(sockets.values())),
        message="the server closes the silent socket",
    )


@pytest.fixture
def slow_pings(services_settings, transactional_db):
    server = LiveSocketServer(ping_interval=1, ping_timeout=5)
    server.start()
    yield server
    server.stop()


async def test_pings_keep_an_answering_socket_open_without_a_task_per_socket(slow_pings):
    url = slow_pings.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
    server = slow_pings.application.server

    async def tasks_on_the_server() -> list[str]:
        return [task.get_coro().__qualname__ for task in asyncio.all_tasks()]

    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        assert (await asyncio.wait_for(ws.receive_str(), 10)).startswith("0{")
        await ws.send_str("40")
        assert (await asyncio.wait_for(ws.receive_str(), 10)).startswith("40{")
        for call in range(3):
            assert await asyncio.wait_for(ws.receive_str(), 10) == "2"
            await ws.send_str("3")
            # Read after the pong: once answered, the next ping is scheduled.
            await ws.send_str(f'42{call}["find","unknown-service"]')
            assert (await asyncio.wait_for(ws.receive_str(), 10)).startswith(f"43{call}[")
            running = asyncio.run_coroutine_threadsafe(tasks_on_the_server(), server.loop)
            waiting = await asyncio.wrap_future(running)
            assert not [name for name in waiting if name.endswith("_send_ping")], waiting
        await emit(slow_pings, "tick", {})
        message = await asyncio.wait_for(ws.receive_str(), 10)
        while message == "2":  # a ping may come first
            await ws.send_str("3")
            message = await asyncio.wait_for(ws.receive_str(), 10)
        assert message == '42["tick",{}]'


async def test_a_socket_queue_keeps_what_engineio_relies_on_from_asyncio_queue():
    queue = fanout.SocketQueue()
    waiting = asyncio.ensure_future(queue.get())
    cancelled = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)  # both getters wait
    queue.put_nowait("a")
    cancelled.cancel()  # the first waiter was woken: "a" is still its
    await queue.put("b")
    assert await waiting == "a"
    assert cancelled.cancelled()
    assert (queue.qsize(), queue.get_nowait(), queue.empty()) == (1, "b", True)
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()

    joined = asyncio.ensure_future(queue.join())
    await asyncio.sleep(0)
    queue.task_done()
    assert not joined.done()  # one of the two packets is not done yet
    queue.task_done()
    await asyncio.wait_for(joined, 1)
    with pytest.raises(ValueError):
        queue.task_done()


async def test_a_woken_getter_cancelled_before_it_runs_passes_the_packet_on():
    queue = fanout.SocketQueue()
    first = asyncio.ensure_future(queue.get())
    second = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait("packet")  # wakes the first getter...
    first.cancel()  # ...which is cancelled before it takes the packet
    assert await asyncio.wait_for(second, 1) == "packet"


async def test_a_socket_queue_counts_the_bytes_it_holds_and_drops_them_when_cut_off():
    from engineio import packet as eio_packet

    queue = fanout.SocketQueue()
    event = eio_packet.Packet(eio_packet.MESSAGE, '2["tick",{"n":1}]')
    event.encode()  # the fan-out's packets come encoded, their frame built from it
    queue.put_nowait(event)
    queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, b"\x00" * 10))
    queue.put_nowait(eio_packet.Packet(eio_packet.PING))
    assert queue.nbytes == len('42["tick",{"n":1}]') + 11 + 1
    assert queue.get_nowait() is event
    queue.task_done()
    assert queue.nbytes == 12
    joined = asyncio.ensure_future(queue.join())
    assert queue.drop() == 2
    assert (queue.nbytes, queue.empty()) == (0, True)
    await asyncio.wait_for(joined, 1)  # a close waiting for the queue is not held

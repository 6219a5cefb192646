"""
How long a remote's pooled connections live: a thread's connection is closed when the thread
ends, an event loop's when the loop shuts down, every one by `close_all()`; the others keep
working. A server over loopback reports which client connections it saw closed.
"""

from __future__ import annotations

import asyncio
import gc
import json
import queue
import threading
import warnings
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from django_services.client.remotes import remotes
from tests.servers import HttpPeer

SYNC_KINDS = ("requests", "httpx")
ASYNC_KINDS = ("httpx-async", "aiohttp")
WAIT = 10


class PortServer(HttpPeer):
    """Answers every request with the client's port, and records the connections it saw end."""

    name = "port"

    def __init__(self) -> None:
        self.handler = _PortHandler
        super().__init__()
        self._ended: defaultdict[int, threading.Event] = defaultdict(threading.Event)
        self._lock = threading.Lock()

    def opened(self, port: int) -> None:
        # A port is used again by later connections: each gets an event of its own.
        with self._lock:
            self._ended[port] = threading.Event()

    def ended(self, port: int) -> threading.Event:
        """Set once the client connection from `port` is closed."""
        with self._lock:
            return self._ended[port]

    def sees_closed(self, port: int) -> bool:
        """Whether the connection from `port` is closed, waiting for the server to read it."""
        return self.ended(port).wait(WAIT)

    def handle_error(self, request: Any, client_address: Any) -> None:
        raise  # a failing handler fails the test


class _PortHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.server.peer.opened(self.client_address[1])  # type: ignore[attr-defined]

    def do_GET(self) -> None:
        content = json.dumps({"port": self.client_address[1]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def finish(self) -> None:
        # The handler returns once the client closed the connection (or broke it).
        try:
            super().finish()
        finally:
            self.server.peer.ended(self.client_address[1]).set()  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Worker:
    """A thread that runs the calls it is given until it is stopped."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def run(self, call: Callable[[], Any]) -> Any:
        done: Future[Any] = Future()
        self._calls.put((call, done))
        return done.result(timeout=WAIT)

    def stop(self) -> None:
        self._calls.put(None)
        self.thread.join(WAIT)
        assert not self.thread.is_alive()

    def _serve(self) -> None:
        while (item := self._calls.get()) is not None:
            call, done = item
            try:
                done.set_result(call())
            except BaseException as error:
                done.set_exception(error)


@pytest.fixture(scope="module")
def server() -> Iterator[PortServer]:
    with PortServer() as server:
        yield server


@pytest.fixture
def start_worker() -> Iterator[Callable[[], Worker]]:
    """Start a worker thread; the test's workers are stopped at its end if still running."""
    workers: list[Worker] = []

    def start() -> Worker:
        workers.append(Worker())
        return workers[-1]

    yield start
    for worker in workers:
        if worker.thread.is_alive():
            worker.stop()


@pytest.fixture
def peer(settings: Any, server: PortServer, request: pytest.FixtureRequest) -> Iterator[str]:
    """The remote `peer`, reaching the server with the connection kind of the test."""
    settings.DJANGO_SERVICES = {
        "REMOTES": {"peer": {"BASE_URL": server.url, "CONNECTION": request.param}}
    }
    yield request.param
    remotes.close_all()
    # Whatever a test left unclosed warns when it is collected. Event loops and SQLite
    # connections are not the client's: one the test machinery left unclosed (an event loop
    # seen on Python 3.10 after the async browser tests; on Python 3.13, a server thread's
    # connection to the suite's in-memory database, which Django never closes) may be
    # collected here too.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    unclosed = [str(w.message) for w in caught if w.category is ResourceWarning]
    not_the_clients = ("unclosed event loop", "unclosed database in <sqlite3.Connection")
    assert [message for message in unclosed if not message.startswith(not_the_clients)] == []


def call() -> tuple[Any, int]:
    """Call the remote from the current thread: its client, and the port it called from."""
    remote = remotes["peer"]
    return remote.connection.client, remote.service("ports").get(1)["port"]


def is_closed(client: Any) -> bool:
    if hasattr(client, "is_closed"):  # httpx
        return bool(client.is_closed)
    if hasattr(client, "closed"):  # aiohttp
        return bool(client.closed)
    # requests: closing a session empties the connection pools of its adapters.
    return all(not adapter.poolmanager.pools for adapter in client.adapters.values())


sync_kinds = pytest.mark.parametrize("peer", SYNC_KINDS, indirect=True)
async_kinds = pytest.mark.parametrize("peer", ASYNC_KINDS, indirect=True)


@sync_kinds
def test_a_thread_s_connection_is_closed_when_the_thread_ends(peer, server, start_worker):
    main_client, main_port = call()
    worker = start_worker()
    client, port = worker.run(call)
    assert worker.run(call) == (client, port)

    worker.stop()

    assert is_closed(client)
    assert server.sees_closed(port)
    assert call() == (main_client, main_port)
    assert not server.ended(main_port).is_set()
    assert not is_closed(main_client)


@sync_kinds
def test_other_threads_keep_their_connections_when_one_ends(peer, server, start_worker):
    first, second = start_worker(), start_worker()
    first_client, first_port = first.run(call)
    second_client, second_port = second.run(call)

    first.stop()

    assert is_closed(first_client)
    assert server.sees_closed(first_port)
    assert second.run(call) == (second_client, second_port)
    assert not server.ended(second_port).is_set()
    second.stop()
    assert is_closed(second_client)
    assert server.sees_closed(second_port)


@sync_kinds
def test_the_connections_of_an_executor_s_threads_are_closed_when_it_shuts_down(peer, server):
    both_running = threading.Barrier(2, timeout=WAIT)

    def call_from_each_thread():
        both_running.wait()
        return call()

    with ThreadPoolExecutor(max_workers=2) as executor:
        calls = [executor.submit(call_from_each_thread) for _ in range(2)]
        made = [future.result() for future in calls]

    assert len({port for _, port in made}) == 2
    for client, port in made:
        assert is_closed(client)
        assert server.sees_closed(port)


@sync_kinds
def test_a_thread_that_ended_is_not_kept(peer, server):
    worker = Worker()  # not kept by a fixture: the test drops the last reference
    _, port = worker.run(call)
    worker.stop()
    thread = weakref.ref(worker.thread)

    del worker
    gc.collect()

    assert thread() is None
    assert server.sees_closed(port)


@sync_kinds
def test_close_all_closes_live_threads_connections_and_can_be_repeated(peer, server, start_worker):
    main_client, main_port = call()
    worker = start_worker()
    client, port = worker.run(call)

    remotes.close_all()
    remotes.close_all()

    assert is_closed(client)
    assert is_closed(main_client)
    assert server.sees_closed(port)
    assert server.sees_closed(main_port)
    new_client, new_port = worker.run(call)
    assert new_client is not client
    assert new_port != port
    worker.stop()
    assert server.sees_closed(new_port)
    remotes.close_all()


@async_kinds
def test_an_event_loop_s_connection_is_closed_when_the_loop_shuts_down(peer, server):
    async def call_in_loop():
        remote = remotes["peer"]
        return remote.connection.client, (await remote.service("ports").get(1))["port"]

    client, port = asyncio.run(call_in_loop())

    assert is_closed(client)
    assert server.sees_closed(port)
    again, other_port = asyncio.run(call_in_loop())
    assert again is not client
    assert is_closed(again)
    assert server.sees_closed(other_port)


@async_kinds
def test_a_loop_that_shut_down_is_not_kept(peer, server):
    loops = []

    async def call_in_loop():
        loops.append(weakref.ref(asyncio.get_running_loop()))
        return (await remotes["peer"].service("ports").get(1))["port"]

    ports = [asyncio.run(call_in_loop())]
    loop = asyncio.new_event_loop()
    ports.append(loop.run_until_complete(call_in_loop()))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
    del loop
    gc.collect()

    assert [loop() for loop in loops] == [None, None]
    assert all(server.sees_closed(port) for port in ports)


@async_kinds
def test_a_loop_closed_without_shutting_down_is_let_go(peer, server):
    async def open_connection():
        return remotes["peer"].connection

    loop = asyncio.new_event_loop()
    loop.run_until_complete(open_connection())
    loop.close()
    closed_loop = weakref.ref(loop)
    del loop

    with warnings.catch_warnings():
        # Its client can no longer be closed: aiohttp warns when it is let go.
        warnings.simplefilter("ignore", ResourceWarning)
        asyncio.run(open_connection())
        gc.collect()

    assert closed_loop() is None


@async_kinds
def test_aclose_all_then_the_loop_s_shutdown_closes_once(peer, server):
    async def call_then_close():
        remote = remotes["peer"]
        client = remote.connection.client
        port = (await remote.service("ports").get(1))["port"]
        await remotes.aclose_all()
        assert is_closed(client)
        return port

    port = asyncio.run(call_then_close())

    assert server.sees_closed(port)


def test_a_sync_remote_inside_an_event_loop_uses_the_thread_s_connection(settings, server):
    settings.DJANGO_SERVICES = {"REMOTES": {"peer": {"BASE_URL": server.url}}}
    client, port = call()

    async def call_in_loop():
        return call()

    try:
        assert asyncio.run(call_in_loop()) == (client, port)
    finally:
        remotes.close_all()
    assert server.sees_closed(port)

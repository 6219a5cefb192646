"""
Fixtures of the client tests.

`harness` is parametrized over the four connection kinds (requests, httpx sync, httpx async,
aiohttp), so each test that uses it proves the same behaviour on all of them. Tests stay
synchronous: `harness.run(service.find())` returns the result, awaiting it in the harness's own
event loop for the async kinds (where every call must be a coroutine).
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import socket
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import aiohttp
import httpx
import pytest
import requests

from django_services.client import App, rest_client

from .wire import WireServer

KINDS = ("requests", "httpx", "httpx-async", "aiohttp")


class Harness:
    """Makes connections of one kind and runs their calls to completion."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.is_async = kind in ("httpx-async", "aiohttp")
        self.loop = asyncio.new_event_loop() if self.is_async else None
        self._closers: list[Any] = []

    def run(self, value: Any) -> Any:
        """The result of a service (or authentication) call, whatever the kind."""
        if self.is_async:
            assert inspect.iscoroutine(value), f"{self.kind} call returned {value!r}"
            return self.loop.run_until_complete(value)
        assert not inspect.isawaitable(value), f"{self.kind} call returned an awaitable"
        return value

    def connect(
        self,
        base: str,
        options: Mapping[str, Any] | None = None,
        service_class: type | None = None,
    ) -> Any:
        transport = rest_client(base)
        if self.kind == "requests":
            session = requests.Session()
            self._closers.append(session.close)
            return transport.requests(session, options, service_class)
        if self.kind == "httpx":
            client = httpx.Client()
            self._closers.append(client.close)
            return transport.httpx(client, options, service_class)
        if self.kind == "httpx-async":
            client = httpx.AsyncClient()
            self._closers.append(lambda: self.loop.run_until_complete(client.aclose()))
            return transport.httpx(client, options, service_class)
        session = self.loop.run_until_complete(_aiohttp_session())
        self._closers.append(lambda: self.loop.run_until_complete(session.close()))
        return transport.aiohttp(session, options, service_class)

    def app(self, base: str, options: Mapping[str, Any] | None = None) -> App:
        return App().configure(self.connect(base, options))

    def close(self) -> None:
        for close in reversed(self._closers):
            close()
        if self.loop is not None:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()


async def _aiohttp_session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession()


@pytest.fixture(params=KINDS)
def harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    harness = Harness(request.param)
    yield harness
    harness.close()


@pytest.fixture(scope="session")
def wire_server() -> Iterator[WireServer]:
    server = WireServer().start()
    yield server
    server.stop()


@pytest.fixture
def wire(wire_server: WireServer) -> Iterator[WireServer]:
    wire_server.reset()
    yield wire_server
    wire_server.reset()


@pytest.fixture(scope="session")
def _drain_live_server(live_server: Any) -> Iterator[None]:
    yield
    # Django's live server answers each keep-alive connection in a thread of its own, which
    # closes the shared test database connection when it ends: those threads must end before
    # the live server (and its database) goes away. A connection stays open as long as the
    # HTTP library's response object lives, and errors keep theirs (`error.response`), in
    # reference cycles with their tracebacks: collect them, so every client socket is closed.
    gc.collect()
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=10)
            assert not thread.is_alive(), f"{thread.name} still serves a client connection"


@pytest.fixture
def live_services(settings: Any, _drain_live_server: None) -> None:
    """Serve the services of `tests.client.services` (use with pytest-django's live_server)."""
    from .services import LIVE_SETTINGS

    settings.DJANGO_SERVICES = LIVE_SETTINGS


@pytest.fixture
def refused_url() -> str:
    """A loopback URL nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"

"""
Fixtures of the client tests.

`harness` is parametrized over the four connection kinds (requests, httpx sync, httpx async,
aiohttp), so each test that uses it proves the same behaviour on all of them. Tests stay
synchronous: `harness.run(service.find())` returns the result, awaiting it in the harness's own
event loop for the async kinds (where every call must be a coroutine).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.harness import CONNECTION_KINDS, ClientHarness, join_live_server_threads

from .wire import WireServer


@pytest.fixture(params=CONNECTION_KINDS)
def harness(request: pytest.FixtureRequest) -> Iterator[ClientHarness]:
    harness = ClientHarness(request.param)
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
    join_live_server_threads()


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

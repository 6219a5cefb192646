"""
Fixtures of the interoperability tests with the real Feathers JS packages.

* `node_packages`: the pinned packages, installed with `npm ci` into node/node_modules when
  they are not already; every test here is skipped (not failed) when node or npm is missing.
* `feathers_server`: a real Feathers v5 server (node/reference-server.js) on a free loopback
  port, for the session.
* `conformance_server`: the django-services conformance fixture (tests/interop/conformance)
  served over real HTTP by a child process, on its own database, for the session.
* `harness`: makes Python client apps on one of the four connection kinds, sync or async,
  and runs their calls.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .databases import conformance_database
from .feathers_js import NODE_DIR, InstallFailed, NodeMissing, install_packages, tools
from .processes import BackgroundServer

REPOSITORY = Path(__file__).resolve().parents[2]

CONNECTION_KINDS = ("requests", "httpx", "httpx-async", "aiohttp")


@pytest.fixture(scope="session")
def node_packages() -> Path:
    try:
        return install_packages()
    except NodeMissing as exc:
        pytest.skip(str(exc))
    except InstallFailed as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("interop-servers")


@pytest.fixture(scope="session")
def feathers_server(node_packages: Path, server_logs: Path) -> Iterator[BackgroundServer]:
    node, _ = tools()
    server = BackgroundServer(
        "feathers-reference", [node, "reference-server.js", "0"], cwd=NODE_DIR
    )
    server.start(server_logs)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def conformance_server(server_logs: Path) -> Iterator[BackgroundServer]:
    with conformance_database(server_logs) as database_url:
        server = BackgroundServer(
            "django-services-conformance",
            [sys.executable, "-m", "tests.interop.conformance.serve", "0"],
            cwd=REPOSITORY,
            env={
                "DJANGO_SETTINGS_MODULE": "tests.interop.conformance.settings",
                "CONFORMANCE_DATABASE_URL": database_url,
                "PYTHONPATH": str(REPOSITORY),
            },
        )
        server.start(server_logs)
        yield server
        server.stop()


class ClientHarness:
    """Python client apps on one connection kind, and a way to run their calls to the end."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.is_async = kind in ("httpx-async", "aiohttp")
        self.loop = asyncio.new_event_loop() if self.is_async else None
        self._closers: list[Any] = []

    def run(self, value: Any) -> Any:
        """The result of a client call: awaited for async kinds, which must return coroutines."""
        if self.is_async:
            assert inspect.iscoroutine(value), f"{self.kind} returned {value!r}, not a coroutine"
            return self.loop.run_until_complete(value)
        assert not inspect.isawaitable(value), f"{self.kind} returned an awaitable"
        return value

    def raises(self, error_class: type[BaseException], call: Callable[[], Any]) -> BaseException:
        """The error `call()`, a client call, raises (the test fails when it raises none)."""
        with pytest.raises(error_class) as caught:
            self.run(call())
        return caught.value

    def app(self, url: str, *, storage: Any = None) -> Any:
        """A client app on `url` with the authentication client (on `storage`) configured."""
        from django_services.client import App, authentication_client, rest_client

        app = App().configure(self._connection(rest_client(url)))
        return app.configure(authentication_client(storage=storage))

    def _connection(self, transport: Any) -> Any:
        if self.kind == "requests":
            import requests

            session = requests.Session()
            self._closers.append(session.close)
            return transport.requests(session)
        import httpx

        if self.kind == "httpx":
            client = httpx.Client()
            self._closers.append(client.close)
            return transport.httpx(client)
        if self.kind == "httpx-async":
            async_client = httpx.AsyncClient()
            self._closers.append(lambda: self.run(async_client.aclose()))
            return transport.httpx(async_client)
        session = self.run(_aiohttp_session())
        self._closers.append(lambda: self.run(session.close()))
        return transport.aiohttp(session)

    def close(self) -> None:
        for close in reversed(self._closers):
            close()
        if self.loop is not None:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()


async def _aiohttp_session() -> Any:
    import aiohttp

    return aiohttp.ClientSession()


@pytest.fixture(params=CONNECTION_KINDS)
def harness(request: pytest.FixtureRequest) -> Iterator[ClientHarness]:
    harness = ClientHarness(request.param)
    yield harness
    harness.close()

"""
Fixtures of the interoperability tests with the real Feathers JS packages.

* `node_packages`: the pinned packages, installed with `npm ci` into node/node_modules when
  they are not already; every test here is skipped (not failed) when node or npm is missing.
* `feathers_server`: a real Feathers v5 server (node/reference-server.js) on a free loopback
  port, for the session.
* `conformance_server`: the django-feathers conformance fixture (tests/interop/conformance)
  served over real HTTP by a child process, on its own database, for the session;
  `conformance_asgi_server`: the same under uvicorn, with socket.io beside REST on its port.
* `harness`: makes Python client apps on one of the four connection kinds, sync or async,
  and runs their calls.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness import CONNECTION_KINDS, ClientHarness
from tests.servers import ProcessServer

from .databases import conformance_database
from .feathers_js import NODE_DIR, InstallFailed, NodeMissing, install_packages, tools

REPOSITORY = Path(__file__).resolve().parents[2]


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
def feathers_server(node_packages: Path, server_logs: Path) -> Iterator[ProcessServer]:
    node, _ = tools()
    with ProcessServer(
        "feathers-reference",
        [node, "reference-server.js", "0"],
        cwd=NODE_DIR,
        log_dir=server_logs,
    ) as server:
        yield server


def _conformance_server(
    server_logs: Path, name: str, options: list[str], label: str
) -> Iterator[Any]:
    with (
        conformance_database(server_logs, label) as database_url,
        ProcessServer(
            name,
            [sys.executable, "-m", "tests.interop.conformance.serve", *options, "0"],
            cwd=REPOSITORY,
            log_dir=server_logs,
            env={
                "DJANGO_SETTINGS_MODULE": "tests.interop.conformance.settings",
                "CONFORMANCE_DATABASE_URL": database_url,
                "PYTHONPATH": str(REPOSITORY),
            },
        ) as server,
    ):
        yield server


@pytest.fixture(scope="session")
def conformance_server(server_logs: Path) -> Iterator[ProcessServer]:
    yield from _conformance_server(server_logs, "django-feathers-conformance", [], "conformance")


@pytest.fixture(scope="session")
def conformance_asgi_server(server_logs: Path) -> Iterator[ProcessServer]:
    """The fixture under uvicorn: REST and socket.io on one port (`serve --asgi`)."""
    # A database of its own: both fixtures may run at once.
    yield from _conformance_server(
        server_logs, "django-feathers-conformance-asgi", ["--asgi"], "conformance_asgi"
    )


class FeathersClientHarness(ClientHarness):
    """Client apps with the authentication client configured, as a Feathers client has it."""

    def app(self, url: str, options: Any = None, *, storage: Any = None) -> Any:
        """A client app on `url` with the authentication client (on `storage`) configured."""
        from django_services.client import authentication_client

        return super().app(url, options).configure(authentication_client(storage=storage))


@pytest.fixture(params=CONNECTION_KINDS)
def harness(request: pytest.FixtureRequest) -> Iterator[FeathersClientHarness]:
    harness = FeathersClientHarness(request.param)
    yield harness
    harness.close()

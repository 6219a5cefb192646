"""
Several conformance servers (tests/interop/conformance) in child processes, on one database.

    with conformance_servers(tmp_dir, count=2, label="writes") as deployment:
        requests.patch(deployment.urls[0] + "/todos/1", json={"text": "a"})
        requests.patch(deployment.urls[1] + "/todos/1", json={"complete": True})
        deployment.logs()         # what the servers printed, for failure messages

The database is a SQLite file with the options the deployment docs recommend, or a private
PostgreSQL database when `DATABASE_URL` points at PostgreSQL. Each server is Django's threaded
WSGI server with `DEBUG=False`, as a deployment with several worker processes has it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.interop.databases import conformance_database
from tests.servers import ProcessServer

REPOSITORY = Path(__file__).resolve().parents[2]


@dataclass
class Deployment:
    """The servers started, the URL of the database they share, and where they log."""

    servers: list[ProcessServer]
    database_url: str
    log_dir: Path

    @property
    def urls(self) -> list[str]:
        """The base URL of each server."""
        return [server.url for server in self.servers]

    def logs(self) -> str:
        """What every server printed, for failure messages."""
        return "\n".join(f"--- {server.name}\n{server.log()}" for server in self.servers)


@contextlib.contextmanager
def conformance_servers(
    log_dir: Path, *, count: int, label: str, env: Mapping[str, str] | None = None
) -> Iterator[Deployment]:
    """
    Start `count` servers on one new database; stop them and drop it afterwards. `env` adds
    to their environment (`CONFORMANCE_DATABASE_OPTIONS`, say).
    """
    with conformance_database(log_dir, label) as database_url:
        servers: list[ProcessServer] = []
        try:
            # One after the other: the first creates the tables the others find.
            for index in range(count):
                server = ProcessServer(
                    f"{label}-{index}",
                    [sys.executable, "-m", "tests.interop.conformance.serve", "0"],
                    cwd=REPOSITORY,
                    log_dir=log_dir,
                    env={
                        "DJANGO_SETTINGS_MODULE": "tests.interop.conformance.settings",
                        "CONFORMANCE_DATABASE_URL": database_url,
                        "PYTHONPATH": str(REPOSITORY),
                        **(env or {}),
                    },
                )
                servers.append(server)
                server.start()
            yield Deployment(servers, database_url, log_dir)
        finally:
            for server in servers:
                server.stop()

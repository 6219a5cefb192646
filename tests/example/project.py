"""
The example project, run as a user runs it: `manage.py` commands in child processes.

    database = ExampleDatabase.create(tmp_path, "example")   # SQLite, or PostgreSQL
    manage("migrate", database=database)
    server = ExampleServer(database, log_path).start()         # uvicorn on a free port
    ...
    server.stop()
    database.drop()

The database is a fresh SQLite file, or, when `DATABASE_URL` points at PostgreSQL, a private
database created on that server (named after `TEST_DATABASE_NAME` and the worker process, so
runs and their workers do not collide).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.servers import ProcessServer

EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "example_project"

#: Seconds a `manage.py` command (migrate, seed_demo) may take.
COMMAND_TIMEOUT = 120


@dataclass(frozen=True)
class ExampleDatabase:
    """A database of its own for the example, and the `DATABASE_URL` that names it."""

    url: str
    postgres_admin_url: str | None = None
    postgres_name: str | None = None

    @classmethod
    def create(cls, directory: Path, suffix: str) -> ExampleDatabase:
        """A new empty database: SQLite in `directory`, or on the PostgreSQL of DATABASE_URL."""
        server_url = os.environ.get("DATABASE_URL", "")
        if not server_url.startswith(("postgres://", "postgresql://")):
            return cls(url=f"sqlite:///{directory / f'{suffix}.sqlite3'}")
        parts = urlsplit(server_url)
        base = os.environ.get("TEST_DATABASE_NAME") or f"test_{parts.path.lstrip('/')}"
        # Each worker process of the suite (pytest-xdist) starts an example of its own.
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        name = f"{base}_{suffix}" if worker is None else f"{base}_{suffix}_{worker}"
        database = cls(
            url=urlunsplit(parts._replace(path=f"/{name}")),
            postgres_admin_url=server_url,
            postgres_name=name,
        )
        database._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        database._execute(f'CREATE DATABASE "{name}"')
        return database

    def drop(self) -> None:
        """Remove a PostgreSQL database (a SQLite file goes with its temporary directory)."""
        if self.postgres_name is not None:
            self._execute(f'DROP DATABASE IF EXISTS "{self.postgres_name}" WITH (FORCE)')

    def _execute(self, statement: str) -> None:
        import psycopg

        assert self.postgres_admin_url is not None
        with psycopg.connect(self.postgres_admin_url, autocommit=True) as connection:
            connection.execute(statement)


def example_environment(database: ExampleDatabase) -> dict[str, str]:
    """The environment of the example's processes: our database, the example's settings."""
    return {
        **os.environ,
        "DATABASE_URL": database.url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
    }


def manage(*args: str, database: ExampleDatabase) -> str:
    """Run `manage.py <args>` of the example and return its output; fail with it on errors."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLE_DIR / "manage.py"), *args],
        cwd=EXAMPLE_DIR,
        env=example_environment(database),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    if result.returncode != 0:
        raise AssertionError(
            f"manage.py {' '.join(args)} exited with {result.returncode}:\n"
            f"{result.stdout}\n{result.stderr}"
        )
    return result.stdout


class ExampleServer(ProcessServer):
    """
    The example as its README runs it, REST and socket.io on one port: uvicorn serving
    `config.asgi:application`, on a free port, its output in `log_path`. With
    `runserver=True`, Django's `manage.py runserver` instead: REST only. `environment` adds
    variables to the example's (`JWT_EXPIRES_IN`, say).
    """

    def __init__(
        self,
        database: ExampleDatabase,
        log_path: Path,
        timeout: float = 60.0,
        *,
        runserver: bool = False,
        environment: dict[str, str] | None = None,
    ) -> None:
        self.database = database
        if runserver:
            manage_py = str(EXAMPLE_DIR / "manage.py")
            command = [sys.executable, manage_py, "runserver", "--noreload", "127.0.0.1:{port}"]
        else:
            command = [
                sys.executable,
                "-m",
                "uvicorn",
                "--app-dir",
                str(EXAMPLE_DIR),
                "config.asgi:application",
                "--ws-per-message-deflate",
                "false",
                "--host",
                "127.0.0.1",
                "--port",
                "{port}",
            ]
        super().__init__(
            log_path.stem,
            command,
            cwd=EXAMPLE_DIR,
            log_dir=log_path.parent,
            env={**example_environment(database), **(environment or {})},
            ready_path="/",
            timeout=timeout,
        )

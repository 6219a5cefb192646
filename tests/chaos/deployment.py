"""
A deployment to break on purpose: socket.io server processes (the conformance project under
uvicorn, `tests.chaos.settings`) on one database and, with several, on a Redis server of their
own; each process behind a proxy through which its clients connect.

    with Deployment(logs, "cut", servers=2, redis=True) as deployment:
        deployment.proxies["asgi-1"].down()        # its clients' network is cut
        deployment.kill("asgi-1")                  # SIGKILL
        deployment.restart("asgi-1")               # a new process on the same port
        deployment.redis.kill(); deployment.redis.start()
        deployment.terminate_database_connections()  # PostgreSQL: every server's backend
        deployment.barrier()                       # a record logged as a process killed after
                                                   # its commit leaves it: only the log has it
        deployment.records()                       # {id: age} of every person committed
"""

from __future__ import annotations

import contextlib
import datetime
import itertools
import json
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from tests.client.proxy import Proxy
from tests.interop.databases import conformance_database
from tests.servers import STOP_TIMEOUT, ProcessServer, free_port
from tests.waiting import eventually

REPOSITORY = Path(__file__).resolve().parents[2]
SETTINGS = "tests.chaos.settings"
#: The name of the last record, whose event every client must receive.
BARRIER = "barrier"

_LOGGED = (
    "INSERT INTO django_services_loggedevent (logged_at, path, event, data, channels, read) "
    "VALUES ({p}, 'people', 'created', {p}, {p}, NULL)"
)
_deployments = itertools.count(1)
_PERSON = "INSERT INTO testapp_person (name, age, created) VALUES ({p}, 0, {false})"


def redis_server_path() -> str | None:
    """The `redis-server` program, or None when it is not installed."""
    return shutil.which("redis-server")


class RedisServer:
    """A `redis-server` of its own, on a free port, that can be killed and started again."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_dir / f"redis-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        """Start it (again, on the same port) and return once it answers."""
        import redis

        program = redis_server_path()
        assert program is not None, "redis-server is not installed"
        command = [program, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        try:
            eventually(answers, 20, message=f"redis-server on port {self.port} answers")
        finally:
            client.close()
        return self

    def kill(self) -> None:
        """SIGKILL: whatever was published and not yet read is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()


class Deployment:
    """`servers` socket.io server processes on a fresh database, each behind its own proxy."""

    def __init__(self, logs: Path, label: str, *, servers: int = 1, redis: bool = False) -> None:
        self.logs = logs
        self.label = label
        self.names = [f"asgi-{number}" for number in range(1, servers + 1)]
        self.redis = RedisServer(logs) if redis else None
        self.ports = {name: free_port() for name in self.names}
        self.servers: dict[str, ProcessServer] = {}
        self.proxies: dict[str, Proxy] = {}
        self.database_url = ""
        #: The database connections terminated so far.
        self.terminated = 0
        self._stack = contextlib.ExitStack()
        self._starts = 0

    def __enter__(self) -> Deployment:
        try:
            # A database of its own, whatever ran before in `logs`.
            label = f"chaos_{self.label}_{next(_deployments)}"
            self.database_url = self._stack.enter_context(conformance_database(self.logs, label))
            if self.redis is not None:
                self.redis.start()
                self._stack.callback(self.redis.stop)
            for name in self.names:
                self.servers[name] = self._start(name)
                self.proxies[name] = Proxy(self.servers[name].url).start()
                self._stack.callback(self.proxies[name].stop)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for server in self.servers.values():
            server.stop()
        self._stack.close()

    def url(self, name: str) -> str:
        """The server's own URL (not through its proxy)."""
        return self.servers[name].url

    def _start(self, name: str) -> ProcessServer:
        self._starts += 1
        environment = {
            "DJANGO_SETTINGS_MODULE": SETTINGS,
            "CONFORMANCE_DATABASE_URL": self.database_url,
            "PYTHONPATH": str(REPOSITORY),
        }
        if self.redis is not None:
            environment["CONFORMANCE_REDIS_URL"] = self.redis.url
            environment["CONFORMANCE_REDIS_CHANNEL"] = f"chaos-{uuid.uuid4().hex}"
        command = [sys.executable, "-m", "tests.interop.conformance.serve", "--asgi"]
        server = ProcessServer(
            f"{self.label}-{name}-{self._starts}",
            [*command, str(self.ports[name])],
            cwd=REPOSITORY,
            log_dir=self.logs,
            env=environment,
        )
        return server.start()

    def kill(self, name: str) -> None:
        """SIGKILL the server: no shutdown, whatever it had committed and not yet sent."""
        process = self.servers[name].process
        assert process is not None
        process.kill()
        process.wait()

    def restart(self, name: str) -> None:
        """Start the server again on its port (after `kill()`)."""
        self.servers[name] = self._start(name)

    def log(self) -> str:
        """What every server printed, for failure messages."""
        return "\n".join(f"--- {server.name}\n{server.log()}" for server in self.servers.values())

    # The database, as the servers share it.

    def barrier(self) -> dict[str, Any]:
        """
        Commit a person and its logged event, as a process killed right after its commit
        leaves them: no process sends it live, every process's tail of the log finds it, after
        every event logged before it. Return the record.
        """
        with self._database() as (connection, p):
            cursor = connection.cursor()
            false = "false" if p == "%s" else "0"
            cursor.execute(_PERSON.format(p=p, false=false) + " RETURNING id", [BARRIER])
            record = {"id": cursor.fetchone()[0], "name": BARRIER, "age": 0, "created": False}
            now = datetime.datetime.now(datetime.timezone.utc)
            logged_at: Any = now if p == "%s" else now.strftime("%Y-%m-%d %H:%M:%S.%f")
            channels = json.dumps([{"names": ["authenticated"]}])
            cursor.execute(_LOGGED.format(p=p), [logged_at, json.dumps(record), channels])
        return record

    def records(self) -> dict[int, int]:
        """`{id: age}` of every person committed."""
        with self._database() as (connection, _):
            cursor = connection.cursor()
            cursor.execute("SELECT id, age FROM testapp_person")
            return {row[0]: row[1] for row in cursor.fetchall()}

    def terminate_database_connections(self) -> int:
        """End every PostgreSQL backend of the servers' database; how many there were."""
        assert self.is_postgres, "only PostgreSQL's connections can be terminated"
        name = urlsplit(self.database_url).path.lstrip("/")
        with self._database() as (connection, _):
            cursor = connection.cursor()
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            return len(cursor.fetchall())

    @property
    def is_postgres(self) -> bool:
        return urlsplit(self.database_url).scheme != "sqlite"

    @contextlib.contextmanager
    def _database(self) -> Iterator[tuple[Any, str]]:
        """A connection in a transaction committed at the end, and its placeholder."""
        if not self.is_postgres:
            sqlite = sqlite3.connect(urlsplit(self.database_url).path, timeout=20)
            try:
                with sqlite:
                    yield sqlite, "?"
            finally:
                sqlite.close()
            return
        import psycopg

        with psycopg.connect(self.database_url) as postgres:
            yield postgres, "%s"

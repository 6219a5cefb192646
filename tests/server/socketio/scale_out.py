"""
Several server processes on one database and one Redis pub/sub channel: two socket.io
(uvicorn) processes and a WSGI one, for the tests of what crosses processes.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests.interop.databases import conformance_database
from tests.servers import ProcessServer

REPOSITORY = Path(__file__).resolve().parents[3]
REDIS_URL = "redis://127.0.0.1:6379/10"


def redis_available() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def own_channel() -> str:
    """A pub/sub channel of this run's own (`SOCKETIO_REDIS_CHANNEL`): others may share Redis."""
    return f"django-feathers-tests-{uuid.uuid4().hex}"


@contextlib.contextmanager
def scale_out(
    logs: Path,
    label: str,
    settings_module: str,
    channel: str,
    names: Sequence[str] = ("asgi-1", "asgi-2", "wsgi"),
) -> Iterator[tuple[str, dict[str, ProcessServer]]]:
    """
    Start, one after the other, a server process per name (an `asgi` one serves socket.io
    too) with `settings_module`, on a fresh conformance database and `channel`; yield the
    database's URL and the servers by name, then stop them.
    """
    started: dict[str, ProcessServer] = {}
    with conformance_database(logs, label) as database_url:
        environment = {
            "DJANGO_SETTINGS_MODULE": settings_module,
            "CONFORMANCE_DATABASE_URL": database_url,
            "CONFORMANCE_REDIS_URL": REDIS_URL,
            "CONFORMANCE_REDIS_CHANNEL": channel,
            "PYTHONPATH": str(REPOSITORY),
        }
        try:
            for name in names:
                options = ["--asgi"] if name.startswith("asgi") else []
                server = ProcessServer(
                    name,
                    [sys.executable, "-m", "tests.interop.conformance.serve", *options, "0"],
                    cwd=REPOSITORY,
                    log_dir=logs,
                    env=environment,
                )
                started[name] = server
                server.start()
            yield database_url, started
        finally:
            for server in started.values():
                server.stop()

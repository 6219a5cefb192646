"""
gunicorn servers on free loopback ports, one per database and worker class.

    with Server(engine="sqlite", rows=100_000, worker_class="gthread") as server:
        server.url                                   # http://127.0.0.1:PORT

Each server runs 2 workers: `sync` (one request at a time per worker, the connection closed
after each response), or `gthread` (4 threads per worker, keep-alive connections, at most 7
connections per worker).

Why the cap: a gthread worker accepts every connection it can, and keeps it. Without a cap,
the load generator's 8 keep-alive connections sometimes all landed on one worker, which then
served them on one core while the other worker idled: the same cell measured 1,950 req/s, then
800 (seen with `ss` during the runs). With at most 7 per worker, both workers always hold some
(4 and 4, 3 and 5, ...), and the cell stays within 1,650 to 2,000. The cap also leaves room for
3 idle keep-alive connections per worker (gunicorn keeps `worker_connections - threads`), so
connections stay open: the server closed about 60 of some 40,000 responses' connections in the
same test.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2
THREADS = 4
#: Below the 8 connections of the load generator, so that no worker takes them all.
MAX_CONNECTIONS_PER_WORKER = 7
KEEP_ALIVE = 5
START_TIMEOUT = 30.0


def free_port() -> int:
    """A TCP port nobody listens on at the moment, on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def bench_environment(engine: str, rows: int, indexes: str = "composite") -> dict[str, str]:
    """The environment of a process serving (or reading) one table."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "BENCH_ENGINE": engine,
        "BENCH_ROWS": str(rows),
        "BENCH_INDEXES": indexes,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }


class Server:
    """A gunicorn process serving the three variants over one table."""

    ready_path = "/plain/ready"

    def __init__(
        self, *, engine: str, rows: int, worker_class: str, indexes: str = "composite"
    ) -> None:
        self.engine = engine
        self.rows = rows
        self.worker_class = worker_class
        self.indexes = indexes
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def directory(self) -> Path:
        return ROOT

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def label(self) -> str:
        from .databases import size_label

        return f"{self.engine} {size_label(self.rows)} {self.worker_class} {self.indexes}"

    def command(self) -> list[str]:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "bench.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(WORKERS),
            "--worker-class",
            self.worker_class,
            "--log-level",
            "warning",
            "--backlog",
            "256",
        ]
        if self.worker_class == "gthread":
            command += [
                "--threads",
                str(THREADS),
                "--worker-connections",
                str(MAX_CONNECTIONS_PER_WORKER),
                "--keep-alive",
                str(KEEP_ALIVE),
            ]
        return command

    def environment(self) -> dict[str, str]:
        """The server process's environment."""
        return bench_environment(self.engine, self.rows, self.indexes)

    def start(self) -> None:
        """Start gunicorn and wait until it answers."""
        self.process = subprocess.Popen(
            self.command(),
            cwd=self.directory,
            env=self.environment(),
            start_new_session=True,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + self.ready_path, timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.label} did not answer within {START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        """Stop the server (and its workers) gracefully, then for good."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()


FEATHERS_DIR = Path(__file__).resolve().parent / "feathers"


class FeathersServer(Server):
    """
    The FeathersJS reference (`feathers/server.js`, koa + knex, 2 node processes) over the
    SQLite file of `rows` people; `install_feathers()` first.
    """

    ready_path = "/ready"

    def __init__(self, *, rows: int) -> None:
        super().__init__(engine="sqlite", rows=rows, worker_class="feathers")

    @property
    def directory(self) -> Path:
        return FEATHERS_DIR

    def command(self) -> list[str]:
        from .databases import sqlite_path

        node = shutil.which("node") or "node"
        return [node, "server.js", str(sqlite_path(self.rows)), str(self.port)]


def install_feathers() -> str | None:
    """
    Install the Feathers packages (`npm ci`, compiling better-sqlite3 takes about two
    minutes the first time); return why the reference cannot run, or None.
    """
    if not (shutil.which("node") and shutil.which("npm")):
        return "node and npm are not installed"
    if (FEATHERS_DIR / "node_modules" / "better-sqlite3" / "build").is_dir():
        return None
    print("  installing the Feathers packages (npm ci)...", flush=True)
    installed = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"],
        cwd=FEATHERS_DIR,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if installed.returncode != 0:
        return "npm ci failed: " + installed.stderr.strip().splitlines()[-1]
    return None

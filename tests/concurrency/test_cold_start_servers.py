"""
A cold start under real servers: a project served by gunicorn (2 processes of 4 threads) or
uvicorn (2 processes) gets 16 simultaneous requests whose views call a remote that logs in as a
service account. Each process keeps its token in its own cache, so each logs in once, and only
once, however many of its threads or tasks found no token.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.example.project import free_port
from tests.harness import join_live_server_threads
from tests.processes import LoggedProcess
from tests.remotes.fixtures import PASSWORD_VARIABLE, SERVICE_EMAIL
from tests.remotes.services import LOGIN_DELAY, LOGINS

pytestmark = pytest.mark.usefixtures("live_remotes", "users")

ROOT = Path(__file__).resolve().parents[2]
CALLS = 16
WORKERS = 2


class CallerServer(LoggedProcess):
    """The caller project under a real server, on a free port."""

    def __init__(self, command: list[str], connection: str, remote_url: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [part.format(port=self.port) for part in command]
        self.environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.remotes.caller.settings",
            "CALLER_REMOTE_URL": remote_url,
            "CALLER_REMOTE_CONNECTION": connection,
            "PYTHONPATH": str(ROOT),
        }

    def start(self, log_path: Path, timeout: float = 30.0) -> CallerServer:
        """Start the server and return once every worker may answer."""
        self.spawn(self.command, cwd=ROOT, env=self.environment, log_path=log_path)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.command[2]} exited:\n{self.log()}")
            try:
                requests.get(f"{self.url}/ready", timeout=2).raise_for_status()
            except requests.RequestException:
                time.sleep(0.1)
                continue
            return self
        self.stop()
        raise AssertionError(f"{self.command[2]} did not answer in {timeout}s:\n{self.log()}")


SERVERS = {
    "gunicorn": (
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tests.remotes.caller.wsgi:application",
            "--bind",
            "127.0.0.1:{port}",
            "--workers",
            str(WORKERS),
            "--threads",
            "4",
        ],
        "requests",
        "/call",
    ),
    "uvicorn": (
        [
            sys.executable,
            "-m",
            "uvicorn",
            "tests.remotes.caller.asgi:application",
            "--port",
            "{port}",
            "--workers",
            str(WORKERS),
            "--no-access-log",
        ],
        "httpx-async",
        "/acall",
    ),
}


@pytest.mark.parametrize("kind", ["requests"])
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_each_process_logs_in_once_at_a_cold_start(server, live_server, tmp_path, monkeypatch):
    pytest.importorskip(server)
    assert os.environ[PASSWORD_VARIABLE]
    command, connection, path = SERVERS[server]
    caller = CallerServer(command, connection, live_server.url)
    LOGIN_DELAY["seconds"] = 0.3
    try:
        caller.start(tmp_path / f"{server}.log")
        start = threading.Barrier(CALLS)

        def call():
            start.wait(timeout=10)
            response = requests.get(caller.url + path, timeout=60)
            assert response.status_code == 200, (response.text, caller.log())
            return response.json()

        with ThreadPoolExecutor(CALLS) as pool:
            answers = [future.result() for future in [pool.submit(call) for _ in range(CALLS)]]
    finally:
        LOGIN_DELAY["seconds"] = 0.0
        caller.stop()
        join_live_server_threads()

    processes = {answer["pid"] for answer in answers}
    assert 1 <= len(processes) <= WORKERS
    assert len(LOGINS) == len(processes), (LOGINS.entries, caller.log())
    assert {entry["email"] for entry in LOGINS.entries} == {SERVICE_EMAIL}
    tokens = {answer["authorization"] for answer in answers}
    assert len(tokens) == len(processes)

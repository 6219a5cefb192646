"""
Servers the interoperability tests start in a child process and stop again.

    server = BackgroundServer("feathers", ["node", "reference-server.js", "0"], cwd=NODE_DIR)
    url = server.start(log_dir)       # waits for the "... listening on http://..." line
    ...
    server.stop()

Output goes to a log file (never a pipe that could fill up), which `log()` returns for failure
messages.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.processes import LoggedProcess

READY_LINE = re.compile(r"listening on (http://\S+)")


class ServerFailed(RuntimeError):
    """The server exited, or did not say it was ready in time."""


class BackgroundServer(LoggedProcess):
    def __init__(
        self,
        name: str,
        command: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.name = name
        self.command = list(command)
        self.cwd = cwd
        self.env = {**os.environ, **(env or {})}
        self.timeout = timeout
        self.url: str | None = None

    def start(self, log_dir: Path) -> str:
        """Start the server and return its base URL once it says it listens."""
        process = self.spawn(
            self.command, cwd=self.cwd, env=self.env, log_path=log_dir / f"{self.name}.log"
        )
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            match = READY_LINE.search(self.log())
            if match:
                self.url = match.group(1)
                return self.url
            if process.poll() is not None:
                raise ServerFailed(
                    f"The {self.name} server exited with {process.returncode}:\n{self.log()}"
                )
            time.sleep(0.05)
        self.stop()
        raise ServerFailed(
            f"The {self.name} server did not start in {self.timeout}s:\n{self.log()}"
        )

"""
`LoggedProcess`: a server the tests run in a child process, its output in a log file.

    process = LoggedProcess()
    process.spawn(["node", "server.js"], cwd=folder, env=os.environ, log_path=logs / "node.log")
    process.log()      # everything it printed so far, for failure messages
    process.stop()

The output goes to a file, never to a pipe that could fill up and block the server.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


class LoggedProcess:
    """A child process whose output goes to a log file."""

    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    def spawn(
        self, command: Sequence[str], *, cwd: Path, env: Mapping[str, str], log_path: Path
    ) -> subprocess.Popen[bytes]:
        """Start `command`, its output and errors written to `log_path`."""
        self.log_path = log_path
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                list(command),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self.process

    def stop(self) -> None:
        """Terminate the process (kill it when it does not stop within 10 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        """Everything the process has printed so far."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

"""
The real Feathers JS packages: installed with npm, and their specs run with mocha.

    install_packages()                              # npm ci, unless node_modules matches the lock
    results = run_specs("http://127.0.0.1:8000", ["rest-client"], tmp_path)
    results.failed                                  # [{"title": ..., "message": ...}]

`node/package.json` pins the packages and `node/package-lock.json` (committed) pins the whole
tree; node_modules is git-ignored and installed by the tests themselves.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

NODE_DIR = Path(__file__).resolve().parent / "node"
NODE_MODULES = NODE_DIR / "node_modules"
# Written after a successful `npm ci`: the digest of the manifest and lock it installed.
INSTALLED_STAMP = NODE_MODULES / ".django-services-installed"
# Held while installing (`npm ci` empties node_modules first, so it cannot hold it there).
INSTALL_LOCK = NODE_DIR / ".install.lock"

INSTALL_TIMEOUT = 600
SPECS_TIMEOUT = 300


class NodeMissing(RuntimeError):
    """node or npm is not installed."""


class InstallFailed(RuntimeError):
    """npm could not install the packages."""


def tools() -> tuple[str, str]:
    """The paths of node and npm; `NodeMissing` when either is not on PATH."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(name for name, path in (("node", node), ("npm", npm)) if not path)
        raise NodeMissing(f"{missing} not found on PATH: the Feathers interop tests need Node 20+")
    return node, npm


def lock_digest() -> str:
    """The digest of package.json and package-lock.json together."""
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((NODE_DIR / name).read_bytes())
    return digest.hexdigest()


def install_packages() -> Path:
    """
    Install the locked packages into node/node_modules, unless they already are.

    The install is skipped when node_modules was installed from the same package.json and
    package-lock.json, so a machine without network access runs the tests once installed.
    """
    _, npm = tools()
    digest = lock_digest()
    # Test runs side by side (SQLite and PostgreSQL, say) install one after the other.
    with INSTALL_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not INSTALLED_STAMP.exists() or INSTALLED_STAMP.read_text().strip() != digest:
            _npm_ci(npm)
            INSTALLED_STAMP.write_text(digest + "\n")
    return NODE_MODULES


def _npm_ci(npm: str) -> None:
    command = [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]
    try:
        completed = subprocess.run(
            command,
            cwd=NODE_DIR,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        raise InstallFailed(f"`{' '.join(command)}` did not finish in {INSTALL_TIMEOUT}s") from exc
    if completed.returncode != 0:
        raise InstallFailed(
            f"`{' '.join(command)}` in {NODE_DIR} failed ({completed.returncode}):\n"
            f"{completed.stdout}\n{completed.stderr}"
        )


@dataclasses.dataclass
class SpecResults:
    """What one run of node/run.js reported."""

    returncode: int
    output: str
    passed: list[str]
    failed: list[dict[str, str]]
    pending: list[str]

    def failure_report(self) -> str:
        """The failed tests with their messages, then mocha's own output."""
        lines = [f"{len(self.failed)} failed, {len(self.passed)} passed:"]
        lines += [f"- {failure['title']}\n    {failure['message']}" for failure in self.failed]
        return "\n".join(lines) + "\n\nmocha output:\n" + self.output[-20000:]


def run_specs(url: str, specs: Sequence[str], results_dir: Path) -> SpecResults:
    """Run the mocha specs of node/specs against the Feathers REST server at `url`."""
    node, _ = tools()
    results_file = results_dir / f"{'-'.join(specs)}-results.json"
    results_file.unlink(missing_ok=True)
    command = [node, "run.js", "--url", url, "--results", str(results_file), *specs]
    completed = subprocess.run(
        command,
        cwd=NODE_DIR,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SPECS_TIMEOUT,
    )
    output = completed.stdout + completed.stderr
    if not results_file.exists():
        raise AssertionError(
            f"`{' '.join(command)}` wrote no results ({completed.returncode}):\n{output}"
        )
    results: dict[str, Any] = json.loads(results_file.read_text())
    return SpecResults(
        returncode=completed.returncode,
        output=output,
        passed=results["passed"],
        failed=results["failed"],
        pending=results["pending"],
    )


def adapter_catalogue() -> dict[str, Any]:
    """node/lib/adapter-catalogue.js: which adapter-tests run over the wire, and why not others."""
    node, _ = tools()
    script = "console.log(JSON.stringify(require('./lib/adapter-catalogue')))"
    completed = subprocess.run(
        [node, "-e", script], cwd=NODE_DIR, capture_output=True, text=True, check=True, timeout=60
    )
    catalogue = json.loads(completed.stdout)
    catalogue.pop("EXCLUDED", None)  # a RegExp: JSON has no form for it
    return catalogue

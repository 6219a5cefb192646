"""
Load generators: wrk (Debian's `wrk` package) when installed, else a Python async generator.

    result = run_load(url, Request("GET", "/services/people/{id}"), max_id=100_000,
                      duration=3, connections=8)
    result.rps, result.p50_ms, result.p99_ms, result.errors

Both keep `connections` connections busy for `duration` seconds (a fixed bound) and report
requests per second, the median and 99th percentile latency, and the requests that failed
(socket errors or a status other than 2xx/3xx). The Python generator is slower than the
servers it measures on a 2-core machine: its req/s understate them and its ratios are pulled
towards 1. The report names the generator used.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import shutil
import subprocess
import time
from pathlib import Path

from .workloads import Request

CELL_SCRIPT = Path(__file__).resolve().parent / "lua" / "cell.lua"


@dataclasses.dataclass(frozen=True)
class LoadResult:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def generator_name(preferred: str = "auto") -> str:
    """`wrk` when it is installed (and not declined with `preferred="python"`), else `python`."""
    if preferred == "python" or not shutil.which("wrk"):
        return "python"
    return "wrk"


def run_load(
    base_url: str,
    request: Request,
    *,
    max_id: int,
    duration: float,
    connections: int,
    generator: str = "auto",
) -> LoadResult:
    """Load `base_url` with `request` for `duration` seconds over `connections` connections."""
    if generator_name(generator) == "wrk":
        return _wrk(base_url, request, max_id, duration, connections)
    return asyncio.run(_python_load(base_url, request, max_id, duration, connections))


def _wrk(
    base_url: str, request: Request, max_id: int, duration: float, connections: int
) -> LoadResult:
    command = [
        "wrk",
        "--threads",
        "1",
        "--connections",
        str(connections),
        "--duration",
        f"{max(1, round(duration))}s",
        "--timeout",
        "10s",
        "--script",
        str(CELL_SCRIPT),
        base_url,
        "--",
        request.method,
        request.path,
        request.body or "",
        str(max_id if "{id}" in request.path else 0),
    ]
    output = subprocess.run(
        command, check=True, capture_output=True, text=True, timeout=duration + 30
    ).stdout
    summary = next(
        json.loads(line) for line in output.splitlines() if line.startswith('{"requests"')
    )
    return LoadResult(
        requests=summary["requests"],
        seconds=summary["duration_us"] / 1e6,
        p50_ms=summary["p50_us"] / 1000,
        p99_ms=summary["p99_us"] / 1000,
        errors=sum(summary["errors"].values()),
    )


async def _python_load(
    base_url: str, request: Request, max_id: int, duration: float, connections: int
) -> LoadResult:
    import aiohttp

    latencies: list[float] = []
    errors = 0
    headers = {"Content-Type": "application/json"} if request.body else {}
    deadline = time.perf_counter() + duration

    async def worker(session: aiohttp.ClientSession) -> None:
        nonlocal errors
        while time.perf_counter() < deadline:
            path = request.path.replace("{id}", str(random.randint(1, max(max_id, 1))))
            started = time.perf_counter()
            try:
                async with session.request(
                    request.method, base_url + path, data=request.body, headers=headers
                ) as response:
                    await response.read()
                    if response.status >= 400:
                        errors += 1
            except aiohttp.ClientError:
                errors += 1
            latencies.append(time.perf_counter() - started)

    connector = aiohttp.TCPConnector(limit=connections)
    timeout = aiohttp.ClientTimeout(total=10)
    started = time.perf_counter()
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        await asyncio.gather(*(worker(session) for _ in range(connections)))
    seconds = time.perf_counter() - started
    latencies.sort()

    def percentile(fraction: float) -> float:
        if not latencies:
            return 0.0
        return latencies[min(len(latencies) - 1, int(fraction * len(latencies)))] * 1000

    return LoadResult(len(latencies), seconds, percentile(0.5), percentile(0.99), errors)

"""
One round of the socket benchmark against one server (`bench.sockets` runs them interleaved).

    figures = measure_round("django", engine="sqlite", sockets=500, writes=20, duration=30, ...)

A round starts the server afresh on the benchmark's table, warms it up (one socket, one
write), measures the CPU of REST creates with no socket connected, connects the sockets from
the client processes (Node socket.io-client, python-socketio or raw Node websockets, the
same for every server), then creates `writes` people a second over REST for `duration`
seconds while the clients time every `people created` event. The server's CPU and memory
come from /proc.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from .servers import FEATHERS_DIR, ROOT, Server, bench_environment

ROWS = 1_000
TICKS = os.sysconf("SC_CLK_TCK")
#: The servers a run can compare: this package under uvicorn, and the FeathersJS reference.
SERVERS = ("django", "feathers")
#: This package with connection state recovery off (`bench.sockets --recovery`), a kind of
#: round beside SERVERS.
NO_RECOVERY = "django-no-recovery"
LABELS = {
    "django": "django-feathers (uvicorn)",
    NO_RECOVERY: "django-feathers (uvicorn, recovery off)",
    "feathers": "Feathers",
}
#: The client processes: Node socket.io-client, python-socketio, and Node `ws` sockets speaking
#: just enough of socket.io to receive events (`feathers/raw_clients.js`, the lightest).
CLIENTS = ("node", "python", "raw")
CLIENT_SCRIPTS = {"node": "socket_clients.js", "raw": "raw_clients.js"}
#: The REST path of the people service on each server.
PEOPLE_PATH = {"django": "/services/people", NO_RECOVERY: "/services/people", "feathers": "/people"}
#: Feathers' knex adapter has no model default for `created`; Django's serializer ignores it.
CREATED = "2024-01-01T00:00:00Z"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


class SocketServer(Server):
    """uvicorn serving `bench.asgi` in one process, with the benchmark's publisher."""

    def __init__(
        self,
        *,
        engine: str,
        deflate: bool = False,
        options: str = "",
        redis: tuple[str | None, str] | None = None,
        recovery: bool = True,
    ) -> None:
        super().__init__(engine=engine, rows=ROWS, worker_class="uvicorn")
        self.deflate = deflate
        self.options = options.split()
        self.redis = redis
        self.recovery = recovery

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
            "--lifespan",
            "on",
            # Event traffic is small JSON sent to many sockets: zlib per recipient costs more
            # than the bytes it saves on a LAN (uvicorn negotiates it by default).
            "--ws-per-message-deflate",
            "true" if self.deflate else "false",
            *websocket_implementation(),
            *self.options,
        ]

    def environment(self) -> dict[str, str]:
        environment = {
            **super().environment(),
            "BENCH_SOCKETS": "1",
            "BENCH_RECOVERY": "on" if self.recovery else "off",
        }
        if self.redis is not None:
            url, channel = self.redis
            environment["BENCH_REDIS_URL"] = url or DEFAULT_REDIS_URL
            environment["BENCH_REDIS_CHANNEL"] = channel
        return environment


def websocket_implementation() -> list[str]:
    """
    This package's websockets protocol (`server.socketio.uvicorn_ws`, uvicorn's sans-I/O one
    holding a connection in 8 KiB less) where the installed uvicorn takes a protocol class on
    its command line (0.38 and later) and the `websockets` package it runs on is installed
    (`uvicorn[standard]`); uvicorn's sans-I/O protocol itself on 0.35 to 0.37: it runs no
    task of its own per connection, where the older `websockets` one runs three, and holds a
    connection in about 7 KiB less. A `--ws` in `--uvicorn` overrides it. Without
    `websockets`, uvicorn's own choice (wsproto).
    """
    import importlib.util

    import click
    from uvicorn.config import WS_PROTOCOLS
    from uvicorn.main import main

    if "websockets-sansio" not in WS_PROTOCOLS or not importlib.util.find_spec("websockets"):
        return []
    option = next(param for param in main.params if param.name == "ws")
    if isinstance(option.type, click.Choice):
        return ["--ws", "websockets-sansio"]
    return ["--ws", "django_services.server.socketio.uvicorn_ws:WebSocketProtocol"]


class FeathersSocketServer(Server):
    """The FeathersJS real-time reference (`feathers/realtime.js`, one node process)."""

    ready_path = "/ready"

    def __init__(self) -> None:
        super().__init__(engine="sqlite", rows=ROWS, worker_class="feathers-socketio")

    @property
    def directory(self) -> Any:
        return FEATHERS_DIR

    def command(self) -> list[str]:
        from .databases import sqlite_path

        node = shutil.which("node") or "node"
        return [node, "realtime.js", str(sqlite_path(ROWS)), str(self.port)]


def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def total_cpu(pids: list[int]) -> float:
    """The CPU time (user and system) the processes have used."""
    return sum(cpu_times(*pids))


def cpu_times(*pids: int) -> tuple[float, float]:
    """The user and the system (kernel) CPU time the processes have used."""
    user = system = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        user, system = user + int(fields[11]), system + int(fields[12])
    return user / TICKS, system / TICKS


def machine_busy_seconds() -> float:
    """The CPU time every core of the machine has spent busy, from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / TICKS


def percentile(values: list[float], fraction: float) -> float:
    """The `fraction` percentile of sorted `values` (nearest rank), 0 for none."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(fraction * len(values)))]


async def write_people(urls: list[str], rate: float, count: int) -> dict[str, Any]:
    """Create `count` people, `rate` a second, each named after its send time, `urls` in turn."""
    import aiohttp

    statuses: list[int] = []
    latencies: list[float] = []

    async def write(session: aiohttp.ClientSession, sequence: int) -> None:
        sent = time.monotonic()
        body = {"name": f"{sequence} {sent:.6f}", "age": sequence % 100, "created": CREATED}
        try:
            async with session.post(urls[sequence % len(urls)], json=body) as response:
                await response.read()
                statuses.append(response.status)
        except (aiohttp.ClientError, asyncio.TimeoutError):
            statuses.append(0)
        latencies.append((time.monotonic() - sent) * 1000)

    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        started = time.monotonic()
        tasks = []
        # Open loop: writes leave on schedule, whether the earlier ones were answered or not.
        for sequence in range(count):
            delay = started + sequence / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(write(session, sequence)))
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "writes": count,
        "created": sum(1 for status in statuses if status == 201),
        "seconds": elapsed,
        "write_p50_ms": percentile(latencies, 0.5),
        "write_p99_ms": percentile(latencies, 0.99),
    }


#: Sockets the warm-up connects at once: more than a server's pool of call threads (at most 32).
WARM_UP_SOCKETS = 40


async def _warm_up(url: str, people: str) -> None:
    """
    Sockets connected at once and a write, so that the baseline memory holds every import and
    every thread of the server's pools with its database connection: what a server holds once,
    not once per connection (django's connects store each socket's session in a pool thread).
    """
    import socketio

    clients = [socketio.AsyncClient(reconnection=False) for _ in range(WARM_UP_SOCKETS)]
    await asyncio.gather(
        *(client.connect(url, transports=["websocket"], wait_timeout=30) for client in clients)
    )
    await write_people([url + people], rate=10, count=2)
    await asyncio.gather(*(client.disconnect() for client in clients))


def _start_clients(
    urls: list[str], sockets: int, processes: int, clients: str
) -> list[subprocess.Popen[str]]:
    shares = [
        sockets // processes + (1 if index < sockets % processes else 0)
        for index in range(processes)
    ]
    if clients in CLIENT_SCRIPTS:
        node = shutil.which("node") or "node"
        program, directory = [node, CLIENT_SCRIPTS[clients]], FEATHERS_DIR
    else:
        program, directory = [sys.executable, "-m", "bench.socket_clients"], ROOT
    return [
        subprocess.Popen(
            [*program, urls[index % len(urls)], str(share)],
            cwd=directory,
            env=bench_environment("sqlite", ROWS),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for index, share in enumerate(shares)
        if share
    ]


def _read(process: subprocess.Popen[str]) -> dict[str, Any]:
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"a client process exited with {process.wait()}")
    return json.loads(line)


def _stop_clients(clients: list[subprocess.Popen[str]]) -> None:
    for client in clients:
        if client.stdin is not None:
            client.stdin.close()
        try:
            client.wait(timeout=30)
        except subprocess.TimeoutExpired:
            client.kill()
            client.wait()
        if client.stdout is not None:
            client.stdout.close()


def load_table(engine: str) -> None:
    """Make the benchmark's table afresh (people created by earlier rounds are deleted)."""
    subprocess.run(
        [sys.executable, "-m", "bench.data", "--engine", engine, "--rows", str(ROWS)],
        cwd=ROOT,
        env=bench_environment(engine, ROWS),
        check=True,
        capture_output=True,
        text=True,
    )


def measure_round(
    kind: str,
    *,
    engine: str,
    sockets: int,
    writes: float,
    duration: float,
    processes: int,
    drain: float,
    clients: str,
    rest_writes: int,
    deflate: bool = False,
    uvicorn: str = "",
    server_processes: int = 1,
    redis_url: str | None = None,
) -> dict[str, Any]:
    """
    Run one round against the server `kind` and return its figures. With `server_processes`
    above 1 (django only), as many uvicorn processes share python-socketio's Redis manager
    at `redis_url`; the client processes and the writes are spread over them.
    """
    load_table(engine)
    count_servers = 1 if kind == "feathers" else server_processes
    channel = f"bench-sockets-{os.getpid()}-{time.monotonic_ns()}"
    servers: list[Server] = [
        FeathersSocketServer()
        if kind == "feathers"
        else SocketServer(
            engine=engine,
            deflate=deflate,
            options=uvicorn,
            redis=(redis_url, channel) if count_servers > 1 else None,
            recovery=kind != NO_RECOVERY,
        )
        for _ in range(count_servers)
    ]
    people = PEOPLE_PATH[kind]
    urls = [server.url for server in servers]
    started: list[subprocess.Popen[str]] = []
    with contextlib.ExitStack() as stack:
        pids = []
        for server in servers:
            stack.enter_context(server)
            assert server.process is not None
            pids.append(server.process.pid)
        for url in urls:
            asyncio.run(_warm_up(url, people))
        before = total_cpu(pids)
        rest = asyncio.run(write_people([url + people for url in urls], 100, rest_writes))
        rest_cpu = total_cpu(pids) - before
        time.sleep(1)
        rss_before = sum(rss_kb(pid) for pid in pids)
        try:
            started = _start_clients(urls, sockets, max(processes, count_servers), clients)
            connected = [_read(client) for client in started]
            time.sleep(2)
            rss_connected = sum(rss_kb(pid) for pid in pids)
            count = sum(report["connected"] for report in connected)
            (user_before, system_before), busy_before = cpu_times(*pids), machine_busy_seconds()
            written = asyncio.run(
                write_people(
                    [url + people for url in urls], writes, max(1, round(writes * duration))
                )
            )
            order = json.dumps({"expect": written["created"], "timeout": drain})
            for client in started:
                assert client.stdin is not None
                client.stdin.write(order + "\n")
                client.stdin.flush()
            received = [_read(client) for client in started]
            # Until the last client has its events: the fan-out may outlast the writes.
            user, system = cpu_times(*pids)
            server_cpu, server_system = (
                user - user_before + system - system_before,
                system - system_before,
            )
            busy = machine_busy_seconds() - busy_before
            rss_after = sum(rss_kb(pid) for pid in pids)
        finally:
            _stop_clients(started)
    latencies = sorted(value for report in received for value in report["latencies_ms"])
    expected = count * written["created"]
    delivered = sum(report["received"] for report in received)
    unique = sum(report["unique"] for report in received)
    return {
        "server": kind,
        "connected": count,
        "connect_failed": sum(report["failed"] for report in connected),
        "connect_seconds": max(report["connect_seconds"] for report in connected),
        **written,
        "deliveries_expected": expected,
        "deliveries_received": delivered,
        "deliveries_lost": expected - unique,
        "duplicates": delivered - unique,
        "sockets_short": sum(report["short_sockets"] for report in received),
        "disconnected": dict(
            sum((Counter(report["disconnected"]) for report in received), Counter())
        ),
        "latency_ms": {
            "p50": percentile(latencies, 0.5),
            "p95": percentile(latencies, 0.95),
            "p99": percentile(latencies, 0.99),
            "max": latencies[-1] if latencies else 0.0,
        },
        "server_rss_kb": {"before": rss_before, "connected": rss_connected, "after": rss_after},
        "server_kb_per_connection": (rss_connected - rss_before) / max(count, 1),
        "server_cpu_seconds": server_cpu,
        "server_us_per_delivery": server_cpu * 1e6 / max(delivered, 1),
        "server_system_share": server_system / server_cpu if server_cpu else 0.0,
        "rest_created": rest["created"],
        "rest_ms_per_create": rest_cpu * 1000 / max(rest["created"], 1),
        "client_cpu_seconds": sum(report["cpu_seconds"] for report in received),
        "client_us_per_delivery": sum(report["cpu_seconds"] for report in received)
        * 1e6
        / max(delivered, 1),
        "machine_busy_seconds": busy,
    }

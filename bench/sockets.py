"""
The socket benchmark: many socket.io clients receiving the events of a steady stream of writes.

    python -m bench.sockets                          # 500 sockets, 20 writes/s, 30 s, SQLite
    python -m bench.sockets --engine postgresql --sockets 1000 --writes 50 --duration 60

One uvicorn process serves `bench.asgi` (REST and socket.io, `get_asgi_application()`), with a
publisher that sends every `people` event to every connection. `--client-processes` processes
(`bench.socket_clients`) connect the sockets over websocket; then this process creates
`--writes` people a second over REST for `--duration` seconds, each named after its send time,
and the clients time each `people created` event they receive. Reported: the delivery latency
(arrival minus send, on this machine's monotonic clock) at p50/p95/p99/max, deliveries received
against expected, the server's memory before and after the sockets connected (hence per
connection), and the CPU the server and the clients used while the writes ran. The table is
printed and written, with the raw figures as JSON, to bench/.data/sockets-*.md and .json.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from .databases import DATA_DIR, ENGINES
from .servers import ROOT, Server, bench_environment

ROWS = 1_000
TICKS = os.sysconf("SC_CLK_TCK")


class SocketServer(Server):
    """uvicorn serving `bench.asgi` in one process, with the benchmark's publisher."""

    def __init__(self, *, engine: str) -> None:
        super().__init__(engine=engine, rows=ROWS, worker_class="uvicorn")

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
        ]

    def environment(self) -> dict[str, str]:
        return {**super().environment(), "BENCH_SOCKETS": "1"}

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


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


async def write_people(url: str, rate: float, duration: float) -> dict[str, Any]:
    """Create `rate` people a second for `duration` seconds, each named after its send time."""
    import aiohttp

    count = max(1, round(rate * duration))
    statuses: list[int] = []
    latencies: list[float] = []

    async def write(session: aiohttp.ClientSession, sequence: int) -> None:
        sent = time.monotonic()
        body = {"name": f"{sequence} {sent:.6f}", "age": sequence % 100}
        try:
            async with session.post(url + "/services/people", json=body) as response:
                await response.read()
                statuses.append(response.status)
        except aiohttp.ClientError:
            statuses.append(0)
        latencies.append((time.monotonic() - sent) * 1000)

    timeout = aiohttp.ClientTimeout(total=30)
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


async def _warm_up(url: str) -> None:
    """One socket and one write, so that the baseline memory holds every import."""
    import socketio

    client = socketio.AsyncClient(reconnection=False)
    await client.connect(url, transports=["websocket"], wait_timeout=30)
    await write_people(url, rate=1, duration=1)
    await client.disconnect()


def _start_clients(url: str, sockets: int, processes: int) -> list[subprocess.Popen[str]]:
    shares = [
        sockets // processes + (1 if index < sockets % processes else 0)
        for index in range(processes)
    ]
    return [
        subprocess.Popen(
            [sys.executable, "-m", "bench.socket_clients", url, str(share)],
            cwd=ROOT,
            env=bench_environment("sqlite", ROWS),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for share in shares
        if share
    ]


def _read(process: subprocess.Popen[str]) -> dict[str, Any]:
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"a client process exited with {process.wait()}")
    return json.loads(line)


def measure(
    *, engine: str, sockets: int, writes: float, duration: float, processes: int, drain: float
) -> dict[str, Any]:
    """Run the benchmark once and return its figures."""
    loaded = subprocess.run(
        [sys.executable, "-m", "bench.data", "--engine", engine, "--rows", str(ROWS)],
        cwd=ROOT,
        env=bench_environment(engine, ROWS),
        check=True,
        capture_output=True,
        text=True,
    )
    print(f"  {loaded.stdout.strip()}", flush=True)
    server = SocketServer(engine=engine)
    clients: list[subprocess.Popen[str]] = []
    with server:
        asyncio.run(_warm_up(server.url))
        time.sleep(1)
        rss_before = rss_kb(server.pid)
        print(f"Connecting {sockets} sockets from {processes} processes...", flush=True)
        try:
            clients = _start_clients(server.url, sockets, processes)
            connected = [_read(client) for client in clients]
            time.sleep(2)
            rss_connected = rss_kb(server.pid)
            count = sum(report["connected"] for report in connected)
            print(f"Writing {writes:g} people a second for {duration:g} s...", flush=True)
            cpu_before = cpu_seconds(server.pid)
            busy_before, writer_before = machine_busy_seconds(), time.process_time()
            written = asyncio.run(write_people(server.url, writes, duration))
            server_cpu = cpu_seconds(server.pid) - cpu_before
            writer_cpu = time.process_time() - writer_before
            busy = machine_busy_seconds() - busy_before
            order = json.dumps({"expect": written["created"], "timeout": drain})
            for client in clients:
                assert client.stdin is not None
                client.stdin.write(order + "\n")
                client.stdin.flush()
            received = [_read(client) for client in clients]
            rss_after = rss_kb(server.pid)
        finally:
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
    latencies = sorted(value for report in received for value in report["latencies_ms"])
    expected = count * written["created"]
    unique = sum(report["unique"] for report in received)
    return {
        "engine": engine,
        "sockets": sockets,
        "connected": count,
        "connect_failed": sum(report["failed"] for report in connected),
        "connect_seconds": max(report["connect_seconds"] for report in connected),
        "client_processes": len(clients),
        "writes_per_second": writes,
        "duration": duration,
        **written,
        "deliveries_expected": expected,
        "deliveries_received": sum(report["received"] for report in received),
        "deliveries_lost": expected - unique,
        "duplicates": sum(report["received"] - report["unique"] for report in received),
        "sockets_short": sum(report["short_sockets"] for report in received),
        "disconnected_after_seconds": sorted(
            value for report in received for value in report["disconnected_after"]
        ),
        "disconnected": sum((Counter(report["disconnected"]) for report in received), Counter()),
        "latency_ms": {
            "p50": percentile(latencies, 0.5),
            "p95": percentile(latencies, 0.95),
            "p99": percentile(latencies, 0.99),
            "max": latencies[-1] if latencies else 0.0,
        },
        "server_rss_kb": {"before": rss_before, "connected": rss_connected, "after": rss_after},
        "server_kb_per_connection": (rss_connected - rss_before) / max(count, 1),
        "server_cpu_seconds": server_cpu,
        "client_cpu_seconds": sum(report["cpu_seconds"] for report in received),
        "writer_cpu_seconds": writer_cpu,
        "machine_busy_seconds": busy,
        "client_rss_kb": sum(report["rss_kb"] for report in received),
    }


def markdown(result: dict[str, Any], machine: dict[str, Any]) -> str:
    """The results as the Markdown of docs/performance.md."""
    latency = result["latency_ms"]
    rss = result["server_rss_kb"]
    seconds = result["seconds"] or 1
    rows = [
        (
            "sockets connected",
            f"{result['connected']} of {result['sockets']} "
            f"({result['client_processes']} client processes, {result['connect_seconds']:.1f} s)",
        ),
        (
            "writes",
            f"{result['created']} of {result['writes']} created in {result['seconds']:.1f} s "
            f"({result['writes_per_second']:g}/s; REST p50 {result['write_p50_ms']:.1f} ms, "
            f"p99 {result['write_p99_ms']:.1f} ms)",
        ),
        (
            "deliveries",
            f"{result['deliveries_received']:,} of {result['deliveries_expected']:,} "
            f"expected; {result['deliveries_lost']} lost, {result['duplicates']} duplicated; "
            f"{sum(result['disconnected'].values())} sockets disconnected "
            f"{dict(result['disconnected']) or ''}",
        ),
        (
            "delivery latency",
            f"p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms, "
            f"p99 {latency['p99']:.1f} ms, max {latency['max']:.1f} ms",
        ),
        (
            "server memory",
            f"{rss['before'] / 1024:.1f} MiB before the sockets, "
            f"{rss['connected'] / 1024:.1f} MiB connected, "
            f"{rss['after'] / 1024:.1f} MiB after the writes",
        ),
        ("memory per connection", f"{result['server_kb_per_connection']:.1f} KiB (server)"),
        (
            "CPU while writing (cores)",
            f"server {result['server_cpu_seconds'] / seconds:.2f}, socket clients "
            f"{result['client_cpu_seconds'] / seconds:.2f}, writer "
            f"{result['writer_cpu_seconds'] / seconds:.2f}; the whole machine "
            f"{result['machine_busy_seconds'] / seconds:.2f} of {machine['cores']}",
        ),
    ]
    title = (
        f"{result['engine']}, {result['sockets']} sockets, {result['writes_per_second']:g} "
        f"writes/s, {result['duration']:g} s (uvicorn, 1 process)"
    )
    lines = [f"#### {title}", "", "| | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    lines += [
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, Python "
        f"{machine['python']}, python-socketio {machine['python-socketio']}, "
        f"uvicorn {machine['uvicorn']}; {machine['date']}, load average "
        f"{machine['load']:.2f} before the run.",
    ]
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    from .run import _cores, _cpu_model, _version

    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": _cores(),
        "python": platform.python_version(),
        "python-socketio": _version("python-socketio"),
        "python-engineio": _version("python-engineio"),
        "uvicorn": _version("uvicorn"),
        "load": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=500, help="sockets (default 500)")
    parser.add_argument("--writes", type=float, default=20, help="writes a second (default 20)")
    parser.add_argument("--duration", type=float, default=30, help="seconds of writes (default 30)")
    parser.add_argument("--engine", choices=ENGINES, default="sqlite")
    parser.add_argument(
        "--client-processes", type=int, default=2, help="processes holding the sockets (default 2)"
    )
    parser.add_argument(
        "--drain", type=float, default=30, help="seconds to wait for late events (default 30)"
    )
    args = parser.parse_args(argv)
    if min(args.sockets, args.writes, args.duration, args.client_processes) <= 0:
        parser.error("--sockets, --writes, --duration and --client-processes must be positive")
    about = machine()
    result = measure(
        engine=args.engine,
        sockets=args.sockets,
        writes=args.writes,
        duration=args.duration,
        processes=min(args.client_processes, args.sockets),
        drain=args.drain,
    )
    text = markdown(result, about)
    print()
    print(text)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    command = "python -m bench.sockets " + " ".join(argv if argv is not None else sys.argv[1:])
    (DATA_DIR / f"sockets-{stamp}.md").write_text(text + "\n")
    (DATA_DIR / f"sockets-{stamp}.json").write_text(
        json.dumps({"machine": about, "command": command.strip(), "result": result}, indent=1)
    )
    print(f"Written to {DATA_DIR}/sockets-{stamp}.md and .json")
    return 0 if result["deliveries_lost"] == 0 and result["connect_failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""
Where a socket.io connection's memory goes: one server process holding idle sockets.

    python -m bench.socket_memory --sockets 1000 [--ws websockets-sansio] [--top 25]

Serves `bench.asgi` under uvicorn in a thread of this process, with tracemalloc on, then
connects `--sockets` python-socketio clients from one child process (`bench.socket_clients`)
and compares the allocations and the resident memory before and after they connect. Each
allocation is put down to the package that asked for it: the innermost frame of its traceback
in uvicorn, websockets, python-engineio, python-socketio, Django or this package (asyncio's
queues and tasks count for whoever made them). Prints, per socket, the Python allocations by
package and the biggest allocation sites. With `--resident`, tracemalloc stays off (its own
bookkeeping is several times the connections' memory) and only the growth of the resident
memory per socket is printed.

`--ws` is uvicorn's option (a name or `module:Class`); by default the benchmark's choice
(`bench.socket_round.websocket_implementation`).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections import defaultdict
from typing import Any

from .servers import ROOT, bench_environment

#: Frames deeper than these are asyncio's, the loop's or the standard library's.
DEPTH = 25
#: Package of an allocation: the first of these path parts found from the innermost frame out.
PACKAGES = {
    "/django_services/": "django-feathers",
    "/uvicorn/": "uvicorn",
    "/websockets/": "websockets",
    "/engineio/": "python-engineio",
    "/socketio/": "python-socketio",
    "/django/": "Django",
}


def package_of(traceback: tracemalloc.Traceback) -> str:
    """The package whose code asked for the allocation (innermost frame first)."""
    for frame in reversed(traceback):  # tracemalloc stores the innermost frame last
        for part, name in PACKAGES.items():
            if part in frame.filename:
                return name  # the first part that matches: django_services before socketio
    return "other"


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(port: int, ws: str) -> Any:
    """uvicorn serving the benchmark's application in a daemon thread; the started server."""
    import uvicorn

    from bench.asgi import application

    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        ws=ws,
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, name="uvicorn", daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    return server


def _snapshot(trace: bool) -> tracemalloc.Snapshot | None:
    return tracemalloc.take_snapshot() if trace else None


def measure(sockets: int, ws: str, top: int, trace: bool = True) -> dict[str, Any]:
    os.environ.update(bench_environment("sqlite", 1_000))
    os.environ["BENCH_SOCKETS"] = "1"
    if trace:
        tracemalloc.start(DEPTH)
    port = _free_port()
    server = serve(port, ws)
    clients = subprocess.Popen(
        [sys.executable, "-m", "bench.socket_clients", f"http://127.0.0.1:{port}", "1"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    # One socket first, so that what every connection shares (imports, caches) is allocated.
    assert clients.stdout is not None and clients.stdin is not None
    json.loads(clients.stdout.readline())
    gc.collect()
    before, rss_before = _snapshot(trace), rss_kb()
    many = subprocess.Popen(
        [sys.executable, "-m", "bench.socket_clients", f"http://127.0.0.1:{port}", str(sockets)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert many.stdout is not None and many.stdin is not None
    connected = json.loads(many.stdout.readline())["connected"]
    time.sleep(1)  # the last handshakes' packets settle (figures, not a test)
    gc.collect()
    after, rss_after = _snapshot(trace), rss_kb()
    for process in (many, clients):
        assert process.stdin is not None
        process.stdin.write(json.dumps({"expect": 0, "timeout": 1}) + "\n")
        process.stdin.close()
        process.wait(30)
    server.should_exit = True
    per = connected or 1
    figures: dict[str, Any] = {
        "sockets": connected,
        "ws": ws,
        "rss_kib_per_socket": round((rss_after - rss_before) / per, 2),
    }
    if before is None or after is None:
        return figures
    by_package: dict[str, int] = defaultdict(int)
    sites: dict[str, int] = defaultdict(int)
    total = 0
    for diff in after.compare_to(before, "traceback"):
        if diff.size_diff <= 0:
            continue
        total += diff.size_diff
        by_package[package_of(diff.traceback)] += diff.size_diff
        frame = diff.traceback[-1]
        sites[f"{frame.filename.rsplit('site-packages/', 1)[-1]}:{frame.lineno}"] += diff.size_diff
    return {
        **figures,
        "python_kib_per_socket": round(total / per / 1024, 2),
        "by_package_kib": {
            name: round(size / per / 1024, 2)
            for name, size in sorted(by_package.items(), key=lambda item: -item[1])
        },
        "top_sites_kib": {
            site: round(size / per / 1024, 2)
            for site, size in sorted(sites.items(), key=lambda item: -item[1])[:top]
        },
    }


def main(argv: list[str] | None = None) -> int:
    from .socket_round import websocket_implementation

    parser = argparse.ArgumentParser(prog="python -m bench.socket_memory", description=__doc__)
    parser.add_argument("--sockets", type=int, default=1_000)
    default_ws = (websocket_implementation() or ["", "auto"])[1]
    parser.add_argument("--ws", default=default_ws, help=f"uvicorn's --ws (default {default_ws})")
    parser.add_argument("--top", type=int, default=25, help="allocation sites to list")
    parser.add_argument(
        "--resident",
        action="store_true",
        help="resident memory only, without tracemalloc (whose bookkeeping inflates it)",
    )
    options = parser.parse_args(argv)
    figures = measure(options.sockets, options.ws, options.top, trace=not options.resident)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

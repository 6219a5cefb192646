"""
The socket benchmark: this package against the FeathersJS reference, many socket.io clients
receiving the events of a steady stream of REST writes, in one run.

    python -m bench.sockets                          # 500 sockets, 20 writes/s, 3 rounds each
    python -m bench.sockets --sockets 1000 --writes 20 --duration 30 --rounds 3
    python -m bench.sockets --servers django --clients python --engine postgresql
    python -m bench.sockets --recovery on,off        # also django with recovery off

Two servers, each one process: uvicorn serving `bench.asgi` (REST and socket.io, with a
publisher that sends every `people` event to every connection), and the FeathersJS v5 server of
`bench/feathers/realtime.js` (koa + knex + `@feathersjs/socketio`, the same SQLite data, a
channel that sends every `people` event to every connection). Their rounds alternate (django,
feathers, feathers, django, ...), so both see the same machine load. Each round
(`bench.socket_round`) measures, from /proc: the server's CPU per delivered event (the least
noisy figure on a shared machine), its CPU per REST create with no socket connected, and its
memory per connection; and from the clients: the delivery latency (arrival minus send time)
and whether every socket got every event exactly once. The same client processes measure both
servers: Node socket.io-client by default, lighter than python-socketio; `--clients raw`, Node
sockets speaking just enough socket.io to receive events, the lightest, for runs where the
clients' CPU would crowd the servers.

Reported per server: the median over its rounds, and the ratio against Feathers. `--recovery
on,off` runs django twice, with connection state recovery on and off, and reports the ratio of
the two. A list of
rates or process counts (`--writes 20,30,40 --server-processes 1,2`) sweeps them and reports
the highest rate each setup holds under `--p99-bound` (`bench.socket_sweep`). The table is
printed and written, with every round's figures as JSON, to bench/.data/sockets-*.md and .json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import sys
from typing import Any

from . import socket_floor, socket_sweep
from .databases import DATA_DIR, ENGINES
from .servers import install_feathers
from .socket_round import (
    CLIENTS,
    LABELS,
    NO_RECOVERY,
    SERVERS,
    measure_round,
    websocket_implementation,
)

#: The ratios a run reports, when it ran both servers of a pair (the first over the second).
RATIOS = [("django", "feathers"), ("django", NO_RECOVERY)]
RATIO_LABELS = {("django", "feathers"): "ratio", ("django", NO_RECOVERY): "recovery on / off"}


def plan(servers: list[str], rounds: int) -> list[str]:
    """The servers' rounds, alternating, each pair in the other order than the last."""
    order: list[str] = []
    for index in range(rounds):
        order += servers if index % 2 == 0 else servers[::-1]
    return order


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over one server's rounds, and the delivery totals."""

    def median(key: str, inner: str | None = None) -> float:
        values = [r[key][inner] if inner else r[key] for r in results]
        return statistics.median(values)

    return {
        "rounds": len(results),
        "us_per_delivery": median("server_us_per_delivery"),
        "system_share": median("server_system_share"),
        "p50": median("latency_ms", "p50"),
        "p99": median("latency_ms", "p99"),
        "max": max(r["latency_ms"]["max"] for r in results),
        "kb_per_connection": median("server_kb_per_connection"),
        "ms_per_create": median("rest_ms_per_create"),
        "write_p99_ms": median("write_p99_ms"),
        "connected": min(r["connected"] for r in results),
        "expected": sum(r["deliveries_expected"] for r in results),
        "received": sum(r["deliveries_received"] for r in results),
        "lost": sum(r["deliveries_lost"] for r in results),
        "duplicates": sum(r["duplicates"] for r in results),
        "created": sum(r["created"] for r in results),
        "writes": sum(r["writes"] for r in results),
        "deliveries_per_second": statistics.median(
            r["deliveries_received"] / r["seconds"] for r in results
        ),
        "disconnected": sum(sum(r["disconnected"].values()) for r in results),
        "server_cores": median("server_cpu_seconds") / median("seconds"),
        "client_cores": median("client_cpu_seconds") / median("seconds"),
        "client_us_per_delivery": median("client_us_per_delivery"),
        "machine_cores": median("machine_busy_seconds") / median("seconds"),
    }


def markdown(
    args: argparse.Namespace, sums: dict[str, dict[str, Any]], about: dict[str, Any]
) -> str:
    """The results as the Markdown of docs/performance.md: one column per server, a ratio."""
    servers = [name for name in ("feathers", NO_RECOVERY, "django") if name in sums]
    # Each ratio: this package (recovery on) against Feathers, and against recovery off.
    ratios = [(ours, base) for ours, base in RATIOS if ours in sums and base in sums]

    def row(label: str, render: Any, key: str | None = None) -> str:
        cells = [render(sums[name]) for name in servers]
        for ours, base in ratios:
            mine, theirs = (sums[ours][key], sums[base][key]) if key else (0, 0)
            cells.append(f"{mine / theirs:.2f}x" if key and theirs else "")
        return f"| {label} | " + " | ".join(cells) + " |"

    header = [LABELS[name] for name in servers] + [RATIO_LABELS[pair] for pair in ratios]
    if args.server_processes > 1:
        header = [
            f"{label[:-1]}, {args.server_processes} processes, Redis)"
            if "uvicorn" in label
            else label
            for label in header
        ]
    lines = [
        f"#### {args.sockets} sockets x {args.writes:g} writes/s, {args.duration:g} s, "
        f"{args.rounds} rounds each ({args.clients} clients, {args.engine})",
        "",
        "| | " + " | ".join(header) + " |",
        "|---|" + "---|" * len(header),
        row(
            "server CPU per delivered event",
            lambda s: f"{s['us_per_delivery']:.1f} µs ({s['system_share']:.0%} in the kernel)",
            "us_per_delivery",
        ),
        row("latency p50 / p99", lambda s: f"{s['p50']:.1f} / {s['p99']:.1f} ms", "p99"),
        row("latency max", lambda s: f"{s['max']:.0f} ms"),
        row(
            "memory per connection",
            lambda s: f"{s['kb_per_connection']:.1f} KiB",
            "kb_per_connection",
        ),
        row(
            "CPU per REST create (no sockets)",
            lambda s: f"{s['ms_per_create']:.2f} ms",
            "ms_per_create",
        ),
        row("deliveries (all rounds)", lambda s: f"{s['received']:,} of {s['expected']:,}"),
        row("lost / duplicated", lambda s: f"{s['lost']} / {s['duplicates']}"),
        row("writes created", lambda s: f"{s['created']} of {s['writes']}"),
        row(
            "clients' CPU per delivered event",
            lambda s: f"{s['client_us_per_delivery']:.1f} µs",
        ),
        row(
            "cores: server, clients, machine",
            lambda s: (
                f"{s['server_cores']:.2f}, "
                f"{s['client_cores']:.2f}, {s['machine_cores']:.2f} of {about['cores']}"
            ),
        ),
        "",
        floor_line(args, sums),
        "",
        footer(args, about),
    ]
    return "\n".join(lines)


def floor(args: argparse.Namespace) -> dict[str, Any]:
    """The floor under a delivery at the run's sockets and rate, on the servers' loop."""
    loop = "asyncio" if "asyncio" in args.uvicorn else socket_floor.loops()[0]
    print(f"The floor: one frame written to {args.sockets} transports ({loop})...", flush=True)
    result = socket_floor.measure(args.sockets, args.writes, min(args.duration, 5), loop)
    print(f"  {result['us_per_recipient']:.1f} µs per recipient", flush=True)
    return result


def floor_line(args: argparse.Namespace, sums: dict[str, dict[str, Any]]) -> str:
    """The floor under the table, and each server's distance to it."""
    result = args.floor
    base = result["us_per_recipient"]
    distances = ", ".join(
        f"{LABELS[name]} {sums[name]['us_per_delivery'] / base:.2f}x"
        for name in ("django", "feathers")
        if name in sums
    )
    return (
        f"Floor (`python -m bench.socket_floor --sockets {result['sockets']} --writes "
        f"{result['writes']:g} --loop {result['loop']}`: one websocket frame written with "
        f"`transport.write()` to each connected transport, no server): {base:.1f} µs of CPU "
        f"per recipient{'' if result['complete'] else ' (NOT every byte arrived)'}"
        + (f"; CPU per delivered event against it: {distances}." if distances else ".")
    )


def footer(args: argparse.Namespace, about: dict[str, Any]) -> str:
    """What the figures were measured on, under a table."""
    return (
        f"Machine: {about['cpu']}, {about['cores']} cores, Python {about['python']}, "
        f"python-socketio {about['python-socketio']}, python-engineio "
        f"{about['python-engineio']}, uvicorn {about['uvicorn']} "
        f"({about['uvicorn-standard']}, {about['uvicorn-ws']}"
        f"{', ' + args.uvicorn if args.uvicorn else ''}), "
        f"node {about['node']}; "
        f"{about['date']}, load average {about['load']:.2f} before the run. Medians over the "
        f"rounds; deliveries summed."
    )


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    from .run import _cores, _cpu_model, _node_version, _version

    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": _cores(),
        "python": platform.python_version(),
        "python-socketio": _version("python-socketio"),
        "python-engineio": _version("python-engineio"),
        "uvicorn": _version("uvicorn"),
        # What uvicorn picks by default when installed (`uvicorn[standard]`), else asyncio,
        # h11 and wsproto.
        "uvicorn-standard": ", ".join(
            f"{name} {_version(name)}" for name in ("uvloop", "httptools", "websockets")
        ),
        "uvicorn-ws": " ".join(websocket_implementation()) or "uvicorn's default --ws",
        "node": _node_version() if shutil.which("node") else "not run",
        "load": os.getloadavg()[0],
    }


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=500, help="sockets (default 500)")
    parser.add_argument(
        "--writes",
        default="20",
        help="writes a second (default 20); a comma-separated list sweeps the rates",
    )
    parser.add_argument("--duration", type=float, default=30, help="seconds of writes (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per server (default 3)")
    parser.add_argument(
        "--servers",
        default="django,feathers",
        help="comma-separated: django, feathers (default both)",
    )
    parser.add_argument("--clients", choices=CLIENTS, default="node", help="default node")
    parser.add_argument("--engine", choices=ENGINES, default="sqlite", help="django's database")
    parser.add_argument(
        "--client-processes", type=int, default=2, help="processes holding the sockets (default 2)"
    )
    parser.add_argument(
        "--rest-writes",
        type=int,
        default=300,
        help="creates (100 a second) measuring a REST write's CPU with no sockets (default 300)",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="let uvicorn negotiate permessage-deflate (its default; off in the benchmark)",
    )
    parser.add_argument(
        "--server-processes",
        default="1",
        help="uvicorn processes sharing python-socketio's Redis manager (default 1); a "
        "comma-separated list sweeps them",
    )
    parser.add_argument(
        "--p99-bound",
        type=float,
        default=100,
        help="the p99 in ms a sweep's rates are held under (default 100)",
    )
    parser.add_argument(
        "--redis-url", help="Redis of --server-processes (default redis://127.0.0.1:6379/0)"
    )
    parser.add_argument(
        "--uvicorn",
        default="",
        help='more uvicorn options, e.g. "--loop asyncio --ws wsproto --http h11"',
    )
    parser.add_argument(
        "--drain", type=float, default=30, help="seconds to wait for late events (default 30)"
    )
    parser.add_argument(
        "--recovery",
        default="on",
        help="django's connection state recovery: on (the default), off, or on,off to run "
        "both in one run (off: no offsets, no socket sessions; the event log is written)",
    )
    args = parser.parse_args(argv)
    args.servers = [name.strip() for name in args.servers.split(",") if name.strip()]
    if not args.servers or set(args.servers) - set(SERVERS):
        parser.error(f"--servers takes a comma-separated list of {', '.join(SERVERS)}")
    recovery = {value.strip() for value in args.recovery.split(",") if value.strip()}
    if not recovery or recovery - {"on", "off"}:
        parser.error("--recovery takes on, off or on,off")
    if "django" in args.servers:
        at = args.servers.index("django")
        kinds = [NO_RECOVERY] * ("off" in recovery) + ["django"] * ("on" in recovery)
        args.servers[at : at + 1] = kinds
    try:
        args.rates = sorted({float(value) for value in args.writes.split(",")})
        args.counts = sorted({int(value) for value in args.server_processes.split(",")})
    except ValueError:
        parser.error("--writes and --server-processes take numbers, comma-separated")
    sizes = [args.sockets, *args.rates, *args.counts, args.duration, args.client_processes]
    if min(*sizes, args.rounds) <= 0:
        parser.error(
            "--sockets, --writes, --server-processes, --duration, --rounds and "
            "--client-processes must be positive"
        )
    args.writes, args.server_processes = args.rates[0], args.counts[0]
    return args


def run_rounds(
    args: argparse.Namespace, kinds: list[str], writes: float, processes: int
) -> dict[str, list[dict[str, Any]]]:
    """The rounds of `kinds` at one rate and process count, alternating."""
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in kinds}
    for index, kind in enumerate(plan(kinds, args.rounds), start=1):
        print(
            f"Round {index}: {LABELS[kind]}, {args.sockets} sockets, {writes:g} writes/s"
            + (f", {processes} processes" if kind != "feathers" and processes > 1 else "")
            + "...",
            flush=True,
        )
        result = measure_round(
            kind,
            engine=args.engine,
            sockets=args.sockets,
            writes=writes,
            duration=args.duration,
            processes=min(args.client_processes, args.sockets),
            drain=args.drain,
            clients=args.clients,
            rest_writes=args.rest_writes,
            deflate=args.deflate,
            uvicorn=args.uvicorn,
            server_processes=processes,
            redis_url=args.redis_url,
        )
        print(
            f"  {result['server_us_per_delivery']:.1f} µs per delivery, p99 "
            f"{result['latency_ms']['p99']:.1f} ms, {result['deliveries_received']:,} of "
            f"{result['deliveries_expected']:,} delivered",
            flush=True,
        )
        results[kind].append(result)
    return results


def run_sweep(args: argparse.Namespace, about: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
    """Every rate with every process count (see `bench.socket_sweep`)."""
    all_setups = socket_sweep.setups(args.servers, args.counts)
    rounds = []
    for rate in args.rates:
        for count in args.counts:
            running = [s for s in all_setups if s.processes == count and not s.stopped]
            if not running:
                continue
            results = run_rounds(args, [s.server for s in running], rate, count)
            for setup in running:
                sums = summary(results[setup.server])
                setup.runs.append((rate, sums))
                setup.stopped = not socket_sweep.holds(sums, args.p99_bound, args.sockets)
                rounds.append(
                    {
                        "server": setup.server,
                        "processes": count,
                        "writes": rate,
                        "summary": sums,
                        "rounds": results[setup.server],
                    }
                )
    heading = (
        f"#### {args.sockets} sockets, {args.duration:g} s of writes a rate, {args.rounds} "
        f"rounds each ({args.clients} clients, {args.engine}), p99 bound {args.p99_bound:g} ms"
    )
    text = socket_sweep.markdown(
        all_setups,
        args.p99_bound,
        args.sockets,
        heading,
        floor_line(args, {}) + "\n\n" + footer(args, about),
    )
    complete = all(
        socket_sweep.complete(sums, args.sockets) for s in all_setups for _, sums in s.runs
    )
    return text, {"p99_bound": args.p99_bound, "runs": rounds}, complete


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    if "feathers" in args.servers or args.clients == "node":
        missing = install_feathers()
        if missing is not None:
            print(
                f"The Feathers server and the Node clients cannot run: {missing}", file=sys.stderr
            )
            return 2
    elif args.clients == "raw" and not shutil.which("node"):
        # The raw clients use Node's own modules only: no `npm ci` for them.
        print("The raw clients cannot run: node is not installed", file=sys.stderr)
        return 2
    about = machine()
    args.floor = floor(args)
    if len(args.rates) > 1 or len(args.counts) > 1:
        text, figures, complete = run_sweep(args, about)
    else:
        results = run_rounds(args, args.servers, args.writes, args.server_processes)
        sums = {name: summary(rounds) for name, rounds in results.items()}
        text = markdown(args, sums, about)
        figures = {"summary": sums, "rounds": results, "floor": args.floor}
        complete = all(socket_sweep.complete(s, args.sockets) for s in sums.values())
    print()
    print(text)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    command = "python -m bench.sockets " + " ".join(argv if argv is not None else sys.argv[1:])
    (DATA_DIR / f"sockets-{stamp}.md").write_text(text + "\n")
    (DATA_DIR / f"sockets-{stamp}.json").write_text(
        json.dumps({"machine": about, "command": command.strip(), **figures}, indent=1)
    )
    print(f"Written to {DATA_DIR}/sockets-{stamp}.md and .json")
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())

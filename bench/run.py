"""
Run every benchmark and print the tables of docs/performance.md.

    python -m bench                   # quick: SQLite 100k rows, sync and gthread (~8 minutes)
    python -m bench --full            # also PostgreSQL, and 1M rows on both (~20 minutes)
    python -m bench --duration 5 --runs 5 --no-clients --indexes single
    python -m bench --full --compare bench/.data/results-20260101-120000.json

Servers are gunicorn processes on free loopback ports; the load comes from wrk (or, without
it, a Python async generator, named in the output). Each run goes through every cell once, so
the ratios compare figures measured minutes apart at most; the tables show medians over runs,
and ratios are the medians of the per-run ratios. Each 100k table is measured with both index
shapes (`--indexes`): the composite `(age, id)` ones and the one-column ones of `db_index=True`.
The full output is also written, as Markdown and JSON, to bench/.data/; `--compare` prints
each ratio's change against an earlier JSON file.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import urllib.request
from typing import Any

from .compare import comparison_markdown, load_results
from .databases import DATA_DIR, INDEX_SHAPES, size_label
from .load import LoadResult, generator_name, run_load
from .report import Report
from .servers import ROOT, FeathersServer, Server, bench_environment, install_feathers
from .workloads import COMPARED, FEATHERS, FIND_SELECTIVE, FIND_UNPAGINATED, SCALING, Workload

SMALL, LARGE = 100_000, 1_000_000
CONNECTIONS = {"sync": 4, "gthread": 8, "feathers": 8}


@dataclasses.dataclass(frozen=True)
class ServerSpec:
    engine: str
    rows: int
    worker_class: str
    indexes: str = "composite"

    @property
    def key(self) -> str:
        return f"{self.engine} {size_label(self.rows)} {self.worker_class} {self.indexes}"


@dataclasses.dataclass(frozen=True)
class Cell:
    server: ServerSpec
    workload: Workload
    variant: str


def plan(
    full: bool, feathers: bool, shapes: tuple[str, ...] = INDEX_SHAPES
) -> tuple[list[ServerSpec], list[Cell]]:
    """The servers to start and the cells to measure in each run."""
    extras = (FIND_SELECTIVE, FIND_UNPAGINATED)
    servers, cells = [], []
    engines = [("sqlite", "sync"), ("sqlite", "gthread")]
    if full:
        engines.append(("postgresql", "gthread"))
    for engine, worker_class in engines:
        for shape in shapes:
            server = ServerSpec(engine, SMALL, worker_class, shape)
            servers.append(server)
            cells += [
                Cell(server, workload, variant)
                for workload in COMPARED
                for variant in workload.variants
            ]
            if worker_class == "gthread" and shape == shapes[0]:
                cells += [Cell(server, workload, "services") for workload in extras]
    if feathers:
        reference = ServerSpec("sqlite", SMALL, "feathers")
        servers.append(reference)
        cells += [Cell(reference, workload, FEATHERS) for workload in COMPARED]
    if full:
        for engine in ("sqlite", "postgresql"):
            large = ServerSpec(engine, LARGE, "gthread", shapes[0])
            servers.append(large)
            cells += [
                Cell(large, workload, variant)
                for workload in SCALING
                for variant in workload.variants
            ]
    return servers, cells


def run_order(cells: list[Cell], run: int) -> list[Cell]:
    """
    The cells of one run: server by server and workload by workload, as planned, with the
    variants of each workload rotated by one place per run. Each variant is then measured
    first, second and last about equally often, so none always pays for what comes first
    after a change of workload or server (the other variants' writes, a server that idled).
    """
    groups: dict[tuple[ServerSpec, str], list[Cell]] = {}
    for cell in cells:
        groups.setdefault((cell.server, cell.workload.name), []).append(cell)
    ordered: list[Cell] = []
    for group in groups.values():
        shift = run % len(group)
        ordered += group[shift:] + group[:shift]
    return ordered


def prepare_data(servers: list[ServerSpec]) -> dict[tuple[str, int, str], Any]:
    """Load each table (or keep it) and count its SQL statements per request."""
    counts = {}
    tables = dict.fromkeys(
        (spec.engine, spec.rows, spec.indexes)
        for spec in servers
        if spec.worker_class != "feathers"
    )
    if any(spec.worker_class == "feathers" for spec in servers):
        # The reference server reads the composite SQLite table.
        tables = {("sqlite", SMALL, "composite"): None, **tables}
    for engine, rows, indexes in tables:
        environment = bench_environment(engine, rows, indexes)
        loaded = subprocess.run(
            [sys.executable, "-m", "bench.data", "--engine", engine, "--rows", str(rows)],
            cwd=ROOT,
            env=environment,
            check=True,
            capture_output=True,
            text=True,
        )
        print(f"  {loaded.stdout.strip()}", flush=True)
        output = subprocess.run(
            [sys.executable, "-m", "bench.queries"],
            cwd=ROOT,
            env=environment,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        counts[engine, rows, indexes] = json.loads(output)
    return counts


def warm_up(server: Server, cells: list[Cell]) -> None:
    """A few requests per cell, so that no run pays for imports and first connections."""
    for cell in cells:
        for pk in range(1, 21):
            request = cell.workload.request(cell.variant, id=pk)
            data = request.body.encode() if request.body else None
            headers = {"Content-Type": "application/json"} if data else {}
            urllib.request.urlopen(
                urllib.request.Request(
                    server.url + request.path, data=data, headers=headers, method=request.method
                ),
                timeout=10,
            ).read()


def machine(generator: str) -> dict[str, Any]:
    """What the figures were measured on."""
    import django
    import rest_framework

    load = "python async generator (aiohttp): understates req/s, pulls ratios towards 1"
    if generator_name(generator) == "wrk":
        wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout
        load = wrk.split("[")[0].strip() or "wrk"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": _cores(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "drf": rest_framework.VERSION,
        "gunicorn": _version("gunicorn"),
        "load generator": load,
        "platform": platform.platform(),
    }


def _server(spec: ServerSpec) -> Server:
    if spec.worker_class == "feathers":
        return FeathersServer(rows=spec.rows)
    return Server(
        engine=spec.engine, rows=spec.rows, worker_class=spec.worker_class, indexes=spec.indexes
    )


def _node_version() -> str:
    output = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    return output.strip()


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            return next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        return "unknown"


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "missing"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="add PostgreSQL and 1M rows")
    parser.add_argument("--duration", type=int, default=2, help="seconds per cell (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs of every cell (default 5)")
    parser.add_argument(
        "--feathers",
        action="store_true",
        help="add the FeathersJS reference server (node; implied by --full when node is there)",
    )
    parser.add_argument(
        "--load",
        choices=["auto", "wrk", "python"],
        default="auto",
        help="load generator: wrk when installed (auto), or the Python async one",
    )
    parser.add_argument(
        "--indexes",
        choices=["both", *INDEX_SHAPES],
        default="both",
        help="index shapes of the 100k tables (default both; 1M tables: the first)",
    )
    parser.add_argument(
        "--compare",
        metavar="RESULTS_JSON",
        help="print each ratio's change against an earlier results-*.json",
    )
    parser.add_argument("--no-clients", action="store_true", help="skip the client benchmarks")
    parser.add_argument("--client-calls", type=int, default=300, help="calls per client sample")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.duration < 1:
        parser.error("--runs and --duration must be at least 1")
    if args.load == "wrk" and generator_name() != "wrk":
        parser.error("wrk is not installed (apt-get install wrk), use --load auto or python")
    earlier = None
    if args.compare:
        try:
            earlier = load_results(args.compare)
        except (OSError, ValueError, KeyError) as failure:
            parser.error(f"cannot read --compare {args.compare}: {failure}")
    shapes = INDEX_SHAPES if args.indexes == "both" else (args.indexes,)

    started = time.monotonic()
    report = Report(machine(args.load), args)
    print(f"Load generator: {report.machine['load generator']}", flush=True)
    feathers = args.feathers or (args.full and shutil.which("node") is not None)
    if feathers:
        missing = install_feathers()
        if missing:
            print(f"Skipping the FeathersJS reference: {missing}", flush=True)
            feathers = False
    report.machine["node"] = _node_version() if feathers else "not run"
    specs, cells = plan(args.full, feathers, shapes)
    print("Preparing the tables and counting SQL statements...", flush=True)
    try:
        report.queries = prepare_data(specs)
    except subprocess.CalledProcessError as failure:
        print(failure.stderr.strip().splitlines()[-1] if failure.stderr else failure)
        print(f"Could not prepare the data ({' '.join(failure.cmd[1:])}).", file=sys.stderr)
        return 1

    servers = {spec: _server(spec) for spec in specs}
    try:
        for spec, server in servers.items():
            server.start()
            warm_up(server, [cell for cell in cells if cell.server == spec])
        estimate = len(cells) * args.runs * args.duration
        print(
            f"{len(cells)} cells x {args.runs} runs x {args.duration} s (~{estimate // 60} min "
            f"{estimate % 60} s)",
            flush=True,
        )
        results: dict[Cell, list[LoadResult]] = {cell: [] for cell in cells}
        for run in range(args.runs):
            for cell in run_order(cells, run):
                server = servers[cell.server]
                result = run_load(
                    server.url,
                    cell.workload.request(cell.variant),
                    max_id=cell.server.rows,
                    duration=args.duration,
                    connections=CONNECTIONS[cell.server.worker_class],
                    generator=args.load,
                )
                results[cell].append(result)
            print(f"  run {run + 1}/{args.runs} done", flush=True)
        report.server_results = {
            (cell.server.key, cell.workload.name, cell.variant): values
            for cell, values in results.items()
        }
        if not args.no_clients:
            print("Client benchmarks...", flush=True)
            from .clients import run_client_benchmarks

            keep_alive = servers[ServerSpec("sqlite", SMALL, "gthread")]
            report.clients = run_client_benchmarks(
                keep_alive.url, rows=SMALL, rounds=max(args.runs, 5), calls=args.client_calls
            )
    finally:
        for server in servers.values():
            server.stop()

    report.elapsed = time.monotonic() - started
    text = report.markdown()
    print()
    print(text)
    DATA_DIR.mkdir(exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    (DATA_DIR / f"results-{stamp}.md").write_text(text)
    results_json = report.as_json()
    (DATA_DIR / f"results-{stamp}.json").write_text(json.dumps(results_json, indent=1))
    print(f"Written to {DATA_DIR}/results-{stamp}.md and .json")
    if earlier is not None:
        print()
        print(comparison_markdown(earlier, results_json, args.compare))
    return 0

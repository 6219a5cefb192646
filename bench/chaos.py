"""
Events written, delivered, lost and duplicated while things fail: the chaos scenarios of
`tests/chaos`, with longer gaps, as figures.

    python -m bench.chaos                                  # every scenario, SQLite, 3 s gaps
    python -m bench.chaos --engine postgresql              # on PostgreSQL (BENCH_POSTGRES_URL)
    python -m bench.chaos --scenarios cut,failover --gap 100 --rate 40 --clients python

Each scenario starts its own server processes on a fresh database (a SQLite file, or a
database of its own on the PostgreSQL server), a writer creating and patching people over REST
at `--rate` writes a second, and the clients (the real Feathers JS client, ours over websocket
and over long-polling; with two servers, each on each: `python@2` is on the second)
logged in through proxies; something fails for `--gap` writes (the
restart: as long as the server takes to start again), then every client waits for a last
record only the event log holds. Prints, per scenario and client: the events written (those
of the records committed, read from the database), delivered (received at least once), lost,
duplicated (received more than once), disordered (records whose events came out of commit
order), phantom (events of no committed write), and whether every reconnect recovered the
session. The PostgreSQL scenario runs with `--engine postgresql` only; the Redis ones need
`redis-server` (each run starts its own).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .databases import DEFAULT_POSTGRES_URL, ENGINES

FIELDS = ("written", "delivered", "lost", "duplicated", "disordered", "phantom")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--scenarios", default="cut,restart,failover,redis,postgres")
    parser.add_argument("--clients", default="feathers-js,python,python-polling")
    parser.add_argument("--engine", choices=ENGINES, default="sqlite")
    parser.add_argument("--gap", type=int, default=60, help="writes while broken")
    parser.add_argument("--settle", type=int, default=20, help="writes before and after")
    parser.add_argument("--rate", type=float, default=20.0, help="writes a second")
    args = parser.parse_args(argv)
    if args.engine == "postgresql":
        # Each scenario creates a database of its own on that server, from its `postgres` one.
        server = urlsplit(os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES_URL))
        os.environ["DATABASE_URL"] = urlunsplit(server._replace(path="/postgres"))
    else:
        os.environ.pop("DATABASE_URL", None)

    from tests.chaos.deployment import redis_server_path
    from tests.chaos.scenarios import SCENARIOS, run

    names = [name for name in args.scenarios.split(",") if name]
    clients = [name for name in args.clients.split(",") if name]
    logs = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    print(
        f"{args.engine}, {args.rate:g} writes/s, gap {args.gap} writes, "
        f"{args.settle} before and after; server logs in {logs}"
    )
    header = f"{'scenario':<10} {'client':<17}" + "".join(f"{f:>11}" for f in FIELDS)
    print(header + "  recovered")
    failures = 0
    for name in names:
        scenario = SCENARIOS[name]
        if scenario.postgres_only and args.engine != "postgresql":
            print(f"{name:<10} (PostgreSQL only)")
            continue
        if scenario.redis and redis_server_path() is None:
            print(f"{name:<10} (needs redis-server)")
            continue
        result = run(scenario, logs, clients, gap=args.gap, settle=args.settle, rate=args.rate)
        for outcome in result.outcomes:
            client = outcome.client
            if scenario.servers > 1:
                client += f"@{outcome.server[-1]}"
            figures = "".join(f"{getattr(outcome.tally, f):>11}" for f in FIELDS)
            reconnects = outcome.connects[1:]
            recovered = f"{sum(reconnects)}/{len(reconnects)}" if reconnects else "-"
            print(f"{name:<10} {client:<17}{figures}  {recovered}")
            failures += bool(outcome.failures())
        print(
            f"{'':<10} writer: {result.answered} writes answered, {result.failed} not"
            + (f", {result.terminated} connections terminated" if result.terminated else "")
            + f"; {result.seconds:.1f} s"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

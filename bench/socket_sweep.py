"""
The socket benchmark's sweep: the events a second each server holds under a p99 bound, for one
and for more uvicorn processes, in one run.

    python -m bench.sockets --servers django --clients raw --sockets 1000 \\
        --server-processes 1,2 --writes 20,30,40,50,60 --p99-bound 100

Every rate of `--writes` (ascending) is run with every count of `--server-processes`, the
counts interleaved at each rate so that they see the same machine load. A setup (a server and
its process count) whose p99 passes the bound, or which loses or duplicates an event, is not
run at the higher rates: the last rate it held is its result. The summary names, for each
setup, the highest rate held (p99 within the bound, every event to every socket exactly
once), and its deliveries a second against the same server with the fewest processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .socket_round import LABELS


@dataclass
class Setup:
    """One server with a number of processes, and its summaries by rate, in the order run."""

    server: str
    processes: int
    runs: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    stopped: bool = False

    @property
    def label(self) -> str:
        if self.server == "feathers":
            return LABELS[self.server]
        plural = "es" if self.processes > 1 else ""
        return f"{LABELS[self.server]}, {self.processes} process{plural}"

    def held(self, bound: float, sockets: int) -> tuple[float, dict[str, Any]] | None:
        """The highest rate run with every event delivered once and the p99 within `bound`."""
        passed = [(rate, s) for rate, s in self.runs if holds(s, bound, sockets)]
        return max(passed, key=lambda run: run[0]) if passed else None


def complete(summary: dict[str, Any], sockets: int) -> bool:
    """Every socket connected and got every event exactly once."""
    return summary["lost"] == summary["duplicates"] == 0 and summary["connected"] == sockets


def holds(summary: dict[str, Any], bound: float, sockets: int) -> bool:
    """The run delivered every event once with a p99 (median over rounds) within `bound`."""
    return complete(summary, sockets) and summary["p99"] <= bound


def setups(servers: list[str], processes: list[int]) -> list[Setup]:
    """The setups of a sweep: Feathers is one process whatever the counts."""
    return [
        Setup(server, count)
        for server in servers
        for count in (processes[:1] if server == "feathers" else processes)
    ]


def markdown(all_setups: list[Setup], bound: float, sockets: int, heading: str, footer: str) -> str:
    """The sweep's table, one row per setup and rate, and what each setup held."""
    lines = [
        heading,
        "",
        "| setup | writes/s | deliveries/s | p50 / p99 | server CPU per delivery "
        "| lost / duplicated | cores: server, clients, machine |",
        "|---|---|---|---|---|---|---|",
    ]
    for setup in all_setups:
        for rate, s in setup.runs:
            mark = "" if holds(s, bound, sockets) else " (over)"
            lines.append(
                f"| {setup.label} | {rate:g} | {s['deliveries_per_second']:,.0f} "
                f"| {s['p50']:.1f} / {s['p99']:.1f} ms{mark} | {s['us_per_delivery']:.1f} µs "
                f"| {s['lost']} / {s['duplicates']} | {s['server_cores']:.2f}, "
                f"{s['client_cores']:.2f}, {s['machine_cores']:.2f} |"
            )
    lines += ["", f"Held with p99 within {bound:g} ms, every event to every socket once:", ""]
    # Each server's first setup has the fewest processes: the others are set against it.
    base: dict[str, float | None] = {}
    for setup in all_setups:
        best = setup.held(bound, sockets)
        delivered = best[1]["deliveries_per_second"] if best else None
        first = base.setdefault(setup.server, delivered)
        if best is None:
            lines.append(f"- {setup.label}: held at no rate run")
            continue
        rate, s = best
        ratio = f"{delivered / first:.2f}x" if first and delivered else "no ratio"
        lines.append(
            f"- {setup.label}: {rate:g} writes/s, {delivered:,.0f} deliveries/s, "
            f"p99 {s['p99']:.1f} ms ({ratio})"
        )
    lines += ["", footer]
    return "\n".join(lines)

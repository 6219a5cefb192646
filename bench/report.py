"""
The benchmark report: Markdown tables, the targets met or missed, and the raw figures as JSON.

    report = Report(machine(), args)
    report.server_results = {("sqlite 100k gthread single", "find", "services"): [LoadResult]}
    print(report.markdown())

Ratios are computed run by run (figures measured seconds apart) and their median is shown.
"""

from __future__ import annotations

import dataclasses
from statistics import median
from typing import Any

from .databases import size_label
from .load import LoadResult

TRANSACTION_WORDS = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
VARIANT_NAMES = {
    "services": "django-feathers",
    "drf": "DRF ModelViewSet",
    "plain": "plain Django",
    "feathers": "FeathersJS (koa + knex)",
}


#: (workload, compared with, the least req/s ratio) on every server measured.
TARGETS = (
    ("find", "drf", 1.2),
    ("find", "plain", 0.85),
    ("get", "drf", 1.2),
    ("get", "plain", 0.85),
    ("deep-page", "drf", 1.0),
    ("create", "drf", 1.0),
)


def _title(server: str) -> str:
    """`sqlite 100k sync single` as `sqlite 100k sync, single-column indexes`."""
    head, _, indexes = server.rpartition(" ")
    return f"{head}, {INDEX_TITLES.get(indexes, indexes)}"


INDEX_TITLES = {"composite": "(column, id) indexes", "single": "single-column indexes"}


def run_ratio(numerators: list[float], denominators: list[float]) -> float:
    """The median of the per-run ratios."""
    return median(a / b for a, b in zip(numerators, denominators, strict=True) if b)


def _rps(results: list[LoadResult]) -> list[float]:
    return [result.rps for result in results]


class Report:
    def __init__(self, machine: dict[str, Any], args: Any) -> None:
        self.machine = machine
        self.args = args
        self.queries: dict[tuple[str, int, str], Any] = {}
        self.server_results: dict[tuple[str, str, str], list[LoadResult]] = {}
        self.clients: Any = None
        self.elapsed = 0.0
        self.targets: list[tuple[str, str, bool | None]] = []

    # SQL statements ---------------------------------------------------------------------

    def statements(self, server: str, workload: str, variant: str) -> tuple[int, int] | None:
        """(data statements, transaction statements) of one request, or None if unknown."""
        engine, size, _, indexes = server.split()
        rows = {"100k": 100_000, "1m": 1_000_000}[size]
        entry = self.queries.get((engine, rows, indexes), {}).get(workload, {}).get(variant)
        if entry is None:
            return None
        control = sum(
            1 for sql in entry["sql"] if sql.lstrip().upper().startswith(TRANSACTION_WORDS)
        )
        return entry["queries"] - control, control

    def _statements_text(self, server: str, workload: str, variant: str) -> str:
        counted = self.statements(server, workload, variant)
        if counted is None:
            return "?"
        data, control = counted
        return f"{data} (+{control} tx)" if control else str(data)

    # Tables -----------------------------------------------------------------------------

    def servers(self) -> list[str]:
        """The gunicorn servers measured (the Feathers reference has a table of its own)."""
        keys = dict.fromkeys(key[0] for key in self.server_results)
        return [key for key in keys if " feathers" not in key]

    def feathers_table(self) -> list[str]:
        reference = {
            workload: results
            for (key, workload, variant), results in self.server_results.items()
            if variant == "feathers"
        }
        if not reference:
            return []
        server = next(key for key, _, variant in self.server_results if variant == "feathers")
        ours_server = server.replace(" feathers", " gthread")
        lines = [
            f"#### FeathersJS v5 reference ({server.split(' feathers')[0]}, node, 2 processes)",
            "",
            "| workload | Feathers req/s | p50 ms | p99 ms | django-feathers (gthread) req/s "
            "| django-feathers / Feathers | errors |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for workload, results in reference.items():
            ours = self.server_results.get((ours_server, workload, "services"))
            ratio = f"{run_ratio(_rps(ours), _rps(results)):.2f}x" if ours else ""
            ours_rps = f"{median(_rps(ours)):,.0f}" if ours else ""
            lines.append(
                f"| {workload} | {median(_rps(results)):,.0f} "
                f"| {median(r.p50_ms for r in results):.1f} "
                f"| {median(r.p99_ms for r in results):.1f} | {ours_rps} | {ratio} "
                f"| {sum(r.errors for r in results)} |"
            )
        return lines

    def server_table(self, server: str) -> list[str]:
        lines = [
            f"#### {_title(server)} (gunicorn, 2 workers)",
            "",
            "| workload | variant | req/s | p50 ms | p99 ms | vs DRF | vs plain | SQL/request "
            "| errors |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for (key, workload, variant), results in self.server_results.items():
            if key != server:
                continue
            versus = []
            for other in ("drf", "plain"):
                other_results = self.server_results.get((server, workload, other))
                if other_results is None or other == variant:
                    versus.append("")
                else:
                    versus.append(f"{run_ratio(_rps(results), _rps(other_results)):.2f}x")
            errors = sum(result.errors for result in results)
            lines.append(
                f"| {workload} | {VARIANT_NAMES[variant]} "
                f"| {median(_rps(results)):,.0f} "
                f"| {median(r.p50_ms for r in results):.1f} "
                f"| {median(r.p99_ms for r in results):.1f} "
                f"| {versus[0]} | {versus[1]} "
                f"| {self._statements_text(server, workload, variant)} "
                f"| {errors} |"
            )
        return lines

    def scaling_pairs(self) -> list[tuple[str, str, str, list[LoadResult], list[LoadResult]]]:
        pairs = []
        for (key, workload, variant), results in self.server_results.items():
            engine, size, worker, indexes = key.split()
            if size != "1m":
                continue
            small_key = f"{engine} 100k {worker} {indexes}"
            small = self.server_results.get((small_key, workload, variant))
            if small is not None:
                pairs.append((engine, workload, variant, small, results))
        return pairs

    def scaling_table(self) -> list[str]:
        pairs = self.scaling_pairs()
        if not pairs:
            return []
        lines = [
            "### From 100k to 1M rows (gunicorn gthread)",
            "",
            "| engine | workload | variant | req/s 100k | req/s 1M | cost 1M / 100k |",
            "| --- | --- | --- | ---: | ---: | ---: |",
        ]
        for engine, workload, variant, small, large in pairs:
            lines.append(
                f"| {engine} | {workload} | {VARIANT_NAMES[variant]} "
                f"| {median(_rps(small)):,.0f} | {median(_rps(large)):,.0f} "
                f"| {run_ratio(_rps(small), _rps(large)):.2f}x |"
            )
        return lines

    def count_table(self) -> list[str]:
        lines = [
            "### The total of a find matching most rows (`age > 30`), in-process",
            "",
            "| table | matches | exact COUNT(*) ms | planner estimate | estimate ms |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for (engine, rows, indexes), counts in self.queries.items():
            cost = counts.get("count")
            if not cost:
                continue
            estimate = f"{cost['estimate']:,}" if "estimate" in cost else "n/a"
            estimate_ms = f"{cost['estimate_ms']:.2f}" if "estimate_ms" in cost else "n/a"
            lines.append(
                f"| {engine} {size_label(rows)} {indexes} | {cost['total']:,} "
                f"| {cost['count_ms']:.1f} "
                f"| {estimate} | {estimate_ms} |"
            )
        return lines

    def client_table(self) -> list[str]:
        if self.clients is None:
            return []
        sequential, concurrent = self.clients
        lines = [
            "### Client (against gunicorn gthread, SQLite 100k, keep-alive)",
            "",
            "| workload | library | ours ms/call | raw ms/call | ours / raw (time) "
            "| client CPU µs/call, ours / raw |",
            "| --- | --- | ---: | ---: | ---: | ---: |",
        ]
        rows = [
            ("sequential get", sequential, "requests"),
            ("sequential get", sequential, "httpx"),
            ("async get x32", concurrent, "httpx async"),
            ("async get x32", concurrent, "aiohttp"),
        ]
        for workload, result, library in rows:
            ours, raw = f"{library} (ours)", f"{library} (raw)"
            lines.append(
                f"| {workload} | {library} | {result.median_ms(ours):.2f} "
                f"| {result.median_ms(raw):.2f} | {result.ratio(ours, raw):.3f}x "
                f"| {result.cpu_us(ours):,.0f} / {result.cpu_us(raw):,.0f} |"
            )
        return lines

    # Targets ----------------------------------------------------------------------------

    def check_targets(self) -> list[tuple[str, str, bool | None]]:
        targets: list[tuple[str, str, bool | None]] = []
        for server in self.servers():
            for workload, other, least in TARGETS:
                services = self.server_results.get((server, workload, "services"))
                other_results = self.server_results.get((server, workload, other))
                if services is None or other_results is None:
                    continue
                ratio = run_ratio(_rps(services), _rps(other_results))
                measured = f"{ratio:.2f}x"
                plain = self.server_results.get((server, workload, "plain"))
                if other != "plain" and plain is not None:
                    # The plain view is the least Django does to send the same SQL: a target
                    # above its own ratio asks for less than Django's ORM, not less Python.
                    plain_ratio = run_ratio(_rps(plain), _rps(other_results))
                    measured += f" (plain Django: {plain_ratio:.2f}x)"
                targets.append(
                    (
                        f"{_title(server)}: {workload} >= {least:.2f}x {VARIANT_NAMES[other]}",
                        measured,
                        ratio >= least,
                    )
                )
        for (engine, rows, indexes), counts in self.queries.items():
            for workload in ("find", "deep-page", "find-selective", "find-unpaginated"):
                entry = counts.get(workload, {}).get("services")
                if entry is not None:
                    targets.append(
                        (
                            f"{engine} {rows:,} rows, {indexes} indexes: {workload} "
                            "<= 2 SQL statements",
                            str(entry["queries"]),
                            entry["queries"] <= 2,
                        )
                    )
            inconsistent = [name for name, same in counts["consistent"].items() if not same]
            if inconsistent:
                targets.append(
                    (
                        f"{engine} {rows:,} {indexes}: the variants answer the same",
                        str(inconsistent),
                        False,
                    )
                )
        for engine, workload, variant, small, large in self.scaling_pairs():
            if variant == "services" and workload in ("find-selective", "find-unpaginated"):
                ratio = run_ratio(_rps(small), _rps(large))
                targets.append(
                    (f"{engine}: {workload} 1M within 1.3x of 100k", f"{ratio:.2f}x", ratio <= 1.3)
                )
        if self.clients is not None:
            sequential, concurrent = self.clients
            for library in ("requests", "httpx"):
                ratio = sequential.ratio(f"{library} (ours)", f"{library} (raw)")
                targets.append(
                    (
                        f"client over {library}: <= 1.05x raw per call",
                        f"{ratio:.3f}x",
                        ratio <= 1.05,
                    )
                )
            for library in ("httpx async", "aiohttp"):
                throughput = 1 / concurrent.ratio(f"{library} (ours)", f"{library} (raw)")
                targets.append(
                    (
                        f"async client over {library}: >= 0.95x raw throughput",
                        f"{throughput:.3f}x",
                        throughput >= 0.95,
                    )
                )
        errors = sum(r.errors for results in self.server_results.values() for r in results)
        targets.append(("no failed request in any cell", str(errors), errors == 0))
        return targets

    # Output -----------------------------------------------------------------------------

    def markdown(self) -> str:
        lines = ["### Machine", ""]
        lines += [f"- {name}: {value}" for name, value in self.machine.items()]
        lines.append(
            f"- runs: {self.args.runs} x {self.args.duration} s per cell, "
            f"took {self.elapsed / 60:.1f} min"
        )
        for server in self.servers():
            lines += ["", *self.server_table(server)]
        tables = (
            self.feathers_table(),
            self.scaling_table(),
            self.count_table(),
            self.client_table(),
        )
        for table in tables:
            if table:
                lines += ["", *table]
        lines += ["", "### Targets", "", "| target | measured | met |", "| --- | ---: | :---: |"]
        for name, measured, met in self.check_targets():
            lines.append(f"| {name} | {measured} | {'yes' if met else '**no**'} |")
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, Any]:
        return {
            "machine": self.machine,
            "runs": self.args.runs,
            "duration": self.args.duration,
            "queries": {
                f"{engine} {rows} {indexes}": value
                for (engine, rows, indexes), value in self.queries.items()
            },
            "servers": [
                {
                    "server": server,
                    "workload": workload,
                    "variant": variant,
                    "runs": [dataclasses.asdict(result) for result in results],
                }
                for (server, workload, variant), results in self.server_results.items()
            ],
            "clients": None
            if self.clients is None
            else [dataclasses.asdict(result) for result in self.clients],
            "targets": [
                {"target": name, "measured": measured, "met": met}
                for name, measured, met in self.check_targets()
            ],
        }

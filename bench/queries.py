"""
SQL statements per request, counted in-process with Django's `CaptureQueriesContext`, and a
check that the variants answer the same records.

    BENCH_ENGINE=sqlite BENCH_ROWS=100000 python -m bench.queries     # prints JSON

For each workload and variant: the status, the number of statements and their SQL. Created
people are deleted again, so the table keeps its size.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def count_queries(rows: int) -> dict[str, Any]:
    """`{workload: {variant: {"status", "queries", "sql"}}}` plus `"consistent"` checks."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from .people.models import Person
    from .workloads import ALL

    client = Client()
    results: dict[str, Any] = {}
    bodies: dict[tuple[str, str], Any] = {}
    sample_id = rows // 2
    for workload in ALL:
        results[workload.name] = {}
        for variant in workload.variants:
            request = workload.request(variant, id=sample_id)
            with CaptureQueriesContext(connection) as captured:
                if request.method == "POST":
                    response = client.post(
                        request.path, request.body, content_type="application/json"
                    )
                else:
                    response = client.get(request.path)
            bodies[workload.name, variant] = response.json()
            results[workload.name][variant] = {
                "status": response.status_code,
                "queries": len(captured.captured_queries),
                "sql": [query["sql"] for query in captured.captured_queries],
            }
    Person.objects.filter(pk__gt=rows).delete()
    results["consistent"] = _consistency(bodies, sample_id)
    results["count"] = count_cost()
    return results


def count_cost(repeat: int = 5) -> dict[str, Any]:
    """
    What the total of the `find` workload costs: the exact `COUNT(*)` of `age > 30` (median
    milliseconds), and on PostgreSQL the planner's estimate of the same (`EXPLAIN`), which
    costs about the same whatever the table size.
    """
    from statistics import median

    from django.db import connection

    from .people.models import Person

    matching = Person.objects.filter(age__gt=30)

    def timed(function: Any) -> tuple[Any, float]:
        samples, value = [], None
        for _ in range(repeat):
            started = time.perf_counter()
            value = function()
            samples.append((time.perf_counter() - started) * 1000)
        return value, median(samples)

    total, count_ms = timed(matching.count)
    cost: dict[str, Any] = {"total": total, "count_ms": count_ms}
    if connection.vendor == "postgresql":
        sql, params = matching.query.sql_with_params()

        def estimate() -> int:
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
                return int(cursor.fetchone()[0][0]["Plan"]["Plan Rows"])

        cost["estimate"], cost["estimate_ms"] = timed(estimate)
    return cost


def _records(body: Any) -> tuple[int | None, tuple[int, ...]]:
    if isinstance(body, list):
        return None, tuple(row["id"] for row in body)
    if "results" in body:
        return body["count"], tuple(row["id"] for row in body["results"])
    if "data" in body:
        return body["total"], tuple(row["id"] for row in body["data"])
    return None, (body["id"],)


def _consistency(bodies: dict[tuple[str, str], Any], sample_id: int) -> dict[str, bool]:
    """Per compared workload: do the variants answer the same ids (and totals)?"""
    checks = {}
    for name in ("find", "get", "deep-page"):
        answers = {_records(body) for (workload, _), body in bodies.items() if workload == name}
        checks[name] = len(answers) == 1
    checks["get"] = checks["get"] and _records(bodies["get", "services"])[1] == (sample_id,)
    unpaginated = _records(bodies["find-unpaginated", "services"])[1]
    checks["find-unpaginated"] = unpaginated == _records(bodies["find", "services"])[1]
    return checks


def main() -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    django.setup()
    json.dump(count_queries(int(os.environ.get("BENCH_ROWS", "100000"))), sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

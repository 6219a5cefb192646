"""The in-process benchmark sends what it is told (`python -m bench.profile --count`)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def run(tmp_path: Path, module: str, *options: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "BENCH_DATA_DIR": str(tmp_path), "BENCH_ROWS": "1000"}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    environment.pop("BENCH_ENGINE", None)
    return subprocess.run(
        [sys.executable, "-m", module, *options],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def people_table(tmp_path: Path) -> tuple[int, int]:
    """The last id the bench's people table handed out, and the rows it holds."""
    (database,) = tmp_path.glob("people-*.sqlite3")
    with sqlite3.connect(database) as connection:
        (last_id,) = connection.execute(
            "SELECT seq FROM sqlite_sequence WHERE name = 'people'"
        ).fetchone()
        (rows,) = connection.execute("SELECT COUNT(*) FROM people").fetchone()
    return last_id, rows


def test_count_sends_the_warm_up_and_the_calls_and_prints_nothing(tmp_path):
    assert run(tmp_path, "bench.data", "--rows", "1000").returncode == 0
    counted = run(tmp_path, "bench.profile", "--count", "create", "--calls", "7")
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout == ""
    last_id, rows = people_table(tmp_path)
    # 50 creates to warm up, then 7 (the service's), all deleted at the end.
    assert (last_id, rows) == (1000 + 50 + 7, 1000)


def test_an_unknown_workload_is_refused_by_name(tmp_path):
    refused = run(tmp_path, "bench.profile", "--count", "nope")
    assert refused.returncode == 2
    assert "no workload 'nope': one of find, get, create" in refused.stderr


def test_every_create_of_the_drf_floor_answers_and_is_cleaned_up(tmp_path):
    assert run(tmp_path, "bench.data", "--rows", "1000").returncode == 0
    from bench.drf_floor import PATHS

    for name in PATHS:
        counted = run(tmp_path, "bench.drf_floor", "--count", name, "--calls", "2")
        # A create that is not answered 201 raises: the process fails.
        assert counted.returncode == 0, (name, counted.stderr)
    last_id, rows = people_table(tmp_path)
    assert (last_id, rows) == (1000 + len(PATHS) * (50 + 2), 1000)

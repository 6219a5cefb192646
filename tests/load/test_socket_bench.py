"""The socket benchmark runs end to end (`python -m bench.sockets`), on a tiny load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TINY = ["--sockets", "5", "--writes", "5", "--duration", "2", "--drain", "30", "--rounds", "1"]
TINY += ["--rest-writes", "10"]
#: The benchmark's own Feathers packages: `npm ci` compiles better-sqlite3 (minutes), so the
#: suite runs the side-by-side case only where `python -m bench.sockets` installed them.
FEATHERS_INSTALLED = ROOT / "bench" / "feathers" / "node_modules" / "better-sqlite3" / "build"


def run_bench(tmp_path: Path, *options: str) -> tuple[str, dict]:
    environment = {**os.environ, "BENCH_DATA_DIR": str(tmp_path)}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    finished = subprocess.run(
        [sys.executable, "-m", "bench.sockets", *TINY, *options],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    (results,) = tmp_path.glob("sockets-*.json")
    return finished.stdout, json.loads(results.read_text())


def assert_every_event_once(round_: dict) -> None:
    assert (round_["connected"], round_["created"]) == (5, 10)
    assert round_["deliveries_received"] == round_["deliveries_expected"] == 50
    assert round_["deliveries_lost"] == round_["duplicates"] == 0
    assert 0 < round_["latency_ms"]["p50"] <= round_["latency_ms"]["p99"]
    assert round_["server_rss_kb"]["connected"] > 0
    assert round_["rest_created"] == 10


NODE = shutil.which("node")


def assert_clients_measured(round_: dict) -> None:
    assert round_["client_cpu_seconds"] > 0
    assert round_["client_us_per_delivery"] > 0


def test_the_socket_benchmark_delivers_every_event(tmp_path):
    stdout, results = run_bench(tmp_path, "--servers", "django", "--clients", "python")
    assert "| latency p50 / p99 | " in stdout
    (round_,) = results["rounds"]["django"]
    assert_every_event_once(round_)
    # The floor under a delivery, measured in the same run, printed with its distance.
    assert "Floor (`python -m bench.socket_floor --sockets 5 --writes 5 " in stdout
    assert "CPU per delivered event against it: django-feathers (uvicorn) " in stdout
    floor = results["floor"]
    assert floor["complete"] and floor["frames"] == 5 * 5 * 2
    assert floor["us_per_recipient"] > 0


@pytest.mark.skipif(not FEATHERS_INSTALLED.is_dir(), reason="bench/feathers is not installed")
def test_the_socket_benchmark_compares_with_feathers_in_one_run(tmp_path):
    stdout, results = run_bench(tmp_path, "--servers", "django,feathers", "--clients", "node")
    assert "| server CPU per delivered event | " in stdout
    assert "| ratio |" in stdout
    for server in ("django", "feathers"):
        (round_,) = results["rounds"][server]
        assert_every_event_once(round_)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_raw_clients_receive_every_event_once_from_this_server(tmp_path):
    stdout, results = run_bench(tmp_path, "--servers", "django", "--clients", "raw")
    assert "(raw clients, sqlite)" in stdout
    (round_,) = results["rounds"]["django"]
    assert_every_event_once(round_)
    assert_clients_measured(round_)


@pytest.mark.skipif(not FEATHERS_INSTALLED.is_dir(), reason="bench/feathers is not installed")
def test_the_raw_clients_receive_every_event_once_from_feathers(tmp_path):
    _, results = run_bench(tmp_path, "--servers", "feathers", "--clients", "raw")
    (round_,) = results["rounds"]["feathers"]
    assert_every_event_once(round_)
    assert_clients_measured(round_)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_sweep_reports_the_rates_held_by_one_and_two_processes(tmp_path):
    stdout, results = run_bench(
        tmp_path,
        *("--servers", "django", "--clients", "raw", "--server-processes", "1,2"),
        *("--writes", "5,10", "--p99-bound", "10000"),
    )
    runs = {(run["processes"], run["writes"]): run for run in results["runs"]}
    assert sorted(runs) == [(1, 5), (1, 10), (2, 5), (2, 10)]
    for processes, writes in runs:
        (round_,) = runs[processes, writes]["rounds"]
        assert round_["created"] == round_["writes"] == writes * 2
        assert round_["deliveries_received"] == round_["deliveries_expected"] == 5 * writes * 2
        assert round_["deliveries_lost"] == round_["duplicates"] == 0
    assert "- django-feathers (uvicorn), 1 process: 10 writes/s, " in stdout
    assert "- django-feathers (uvicorn), 2 processes: 10 writes/s, " in stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_sweep_stops_a_setup_at_the_first_rate_over_the_bound(tmp_path):
    stdout, results = run_bench(
        tmp_path,
        *("--servers", "django", "--clients", "raw", "--server-processes", "1,2"),
        *("--writes", "5,10", "--p99-bound", "0.001"),
    )
    assert [(run["processes"], run["writes"]) for run in results["runs"]] == [(1, 5), (2, 5)]
    assert "- django-feathers (uvicorn), 1 process: held at no rate run" in stdout
    assert "- django-feathers (uvicorn), 2 processes: held at no rate run" in stdout

"""The socket benchmark runs end to end (`python -m bench.sockets`), on a tiny load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TINY = ["--sockets", "5", "--writes", "5", "--duration", "2", "--drain", "30"]


def test_the_socket_benchmark_delivers_every_event(tmp_path):
    environment = {**os.environ, "BENCH_DATA_DIR": str(tmp_path)}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    finished = subprocess.run(
        [sys.executable, "-m", "bench.sockets", *TINY],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "| delivery latency | p50 " in finished.stdout
    (results,) = tmp_path.glob("sockets-*.json")
    result = json.loads(results.read_text())["result"]
    assert (result["connected"], result["created"]) == (5, 10)
    assert result["deliveries_received"] == result["deliveries_expected"] == 50
    assert result["deliveries_lost"] == result["duplicates"] == 0
    assert 0 < result["latency_ms"]["p50"] <= result["latency_ms"]["p99"]
    assert result["server_rss_kb"]["connected"] > 0

"""
Where a real gunicorn worker spends its time under load: py-spy samples both workers while wrk
(or the Python generator) loads one cell, and the functions are listed by their inclusive
share of the samples.

    python -m bench.spy get                      # django-feathers, SQLite 100k, sync workers
    python -m bench.spy create --variant drf --seconds 8 --top 40
    python -m bench.spy find --indexes single      # the one-column db_index table

py-spy reads the workers' memory, which needs the right to trace them (root, or
`kernel.yama.ptrace_scope = 0`).
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .load import run_load
from .servers import Server
from .workloads import BY_NAME, VARIANTS

RATE = 200


def inclusive_shares(folded: list[Path]) -> tuple[int, collections.Counter[str]]:
    """Samples in all, and per function the samples whose stack holds it (once per stack)."""
    total, counts = 0, collections.Counter[str]()
    for path in folded:
        for line in path.read_text().splitlines():
            stack, _, samples = line.rpartition(" ")
            total += int(samples)
            names = {frame.split(" (", 1)[0].strip() for frame in stack.split(";")}
            for name in names:
                counts[name] += int(samples)
    return total, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", choices=sorted(BY_NAME))
    parser.add_argument("--variant", default="services", choices=VARIANTS)
    parser.add_argument("--engine", default="sqlite", choices=["sqlite", "postgresql"])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"])
    parser.add_argument("--indexes", default="composite", choices=["composite", "single"])
    parser.add_argument("--seconds", type=int, default=5, help="sampling time (default 5)")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    args = parser.parse_args(argv)
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        parser.error("py-spy is not installed: pip install py-spy (or the [bench] extra)")

    workload = BY_NAME[args.workload]
    server = Server(
        engine=args.engine, rows=args.rows, worker_class=args.worker_class, indexes=args.indexes
    )
    with server, tempfile.TemporaryDirectory() as directory:
        assert server.process is not None
        pids = subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=True
        ).stdout.split()
        load = threading.Thread(
            target=run_load,
            args=(server.url, workload.request(args.variant)),
            kwargs={"max_id": args.rows, "duration": args.seconds + 2, "connections": 4},
        )
        load.start()
        time.sleep(1)
        outputs = [Path(directory) / f"{pid}.txt" for pid in pids]
        recorders = [
            subprocess.Popen(
                [
                    spy,
                    "record",
                    "--pid",
                    pid,
                    "--duration",
                    str(args.seconds),
                    "--rate",
                    str(RATE),
                    "--format",
                    "raw",
                    "--output",
                    str(output),
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for pid, output in zip(pids, outputs, strict=True)
        ]
        for recorder in recorders:
            _, error = recorder.communicate()
            if recorder.returncode != 0:
                print(error.decode(errors="replace"), file=sys.stderr)
                return 1
        load.join()
        total, counts = inclusive_shares(outputs)
    print(f"{args.workload} / {args.variant} on {server.label}: {total} samples, inclusive")
    for name, samples in counts.most_common(args.top):
        print(f"{samples / total:6.1%}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

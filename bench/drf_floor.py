"""
What DRF's own steps cost a create, in instructions, beside the package's and the plain view's.

    python -m bench.data
    python -m bench.drf_floor                       # every create, under valgrind (a table)
    python -m bench.drf_floor --count apiview --calls 220   # only send requests (valgrind)

Each create is counted as `bench.profile --count` counts: `valgrind --tool=cachegrind
--cache-sim=no` around the bench project's WSGI application in one process, once with 20
requests and once with 220 (after 50 to warm up), the difference over 200. The creates:

| name | what answers |
|---|---|
| `plain` | the plain Django view (`bench.people.plain`) |
| `plain-validated` | the plain view, the body validated by DRF at its cheapest |
| `apiview` | DRF's `APIView` lifecycle, no authentication, permission, throttle or validation |
| `apiview-validated` | the same, the body validated by DRF at its cheapest |
| `apiview-serializer` | the same, a `PersonSerializer` per request, as DRF's docs show |
| `services` | the package's service (`bench.people.services.PersonService`) |
| `drf` | DRF's `ModelViewSet` (`bench.people.drf`) |

"At its cheapest" is one serializer whose fields were built once, `run_validation()` per
request (see `bench.people.floor`). The gap between `plain` and `apiview` is DRF's request
lifecycle alone (its `Request`, parser, content negotiation, `Response` and rendering), which a
service keeps so that `self.request` and DRF's policies work in its calls.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

PATHS = {
    "plain": "/plain/people",
    "plain-validated": "/floor/plain-validated",
    "apiview": "/floor/apiview",
    "apiview-validated": "/floor/apiview-validated",
    "apiview-serializer": "/floor/apiview-serializer",
    "services": "/services/people",
    "drf": "/drf/people/",
}

#: Requests sent before any is counted.
WARM_UP = 50


def send(name: str, calls: int) -> None:
    """Send `WARM_UP + calls` creates of `name` to the WSGI application, in this process."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    from .people.models import Person
    from .profile import make_call
    from .workloads import CREATE_BODY

    rows = int(os.environ.get("BENCH_ROWS", "100000"))
    call = make_call(application, "POST", PATHS[name], CREATE_BODY)
    try:
        for _ in range(WARM_UP + calls):
            call()
    finally:
        Person.objects.filter(pk__gt=rows).delete()


def instructions(name: str, calls: int) -> int:
    """The instructions valgrind counts for a process sending `calls` creates of `name`."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench.drf_floor",
        "--count",
        name,
        "--calls",
        str(calls),
    ]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    match = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if match is None:
        raise RuntimeError(f"valgrind printed no count for {name}:\n{run.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def per_create(name: str) -> int:
    return (instructions(name, 220) - instructions(name, 20)) // 200


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", choices=list(PATHS), help="only send --calls creates")
    parser.add_argument("--calls", type=int, default=200, help="with --count (default 200)")
    args = parser.parse_args(argv)
    if args.count:
        send(args.count, args.calls)
        return 0
    if shutil.which("valgrind") is None:
        parser.error("valgrind is needed to count instructions (Debian: apt install valgrind)")
    counts = {name: per_create(name) for name in PATHS}
    plain = counts["plain"]
    print("| create | instructions | against the plain view |")
    print("|---|---:|---:|")
    for name, count in counts.items():
        print(f"| {name} | {count:,} | {count / plain:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""
Per-request cost in-process (no network, no load generator), and where the time goes.

    python -m bench.profile                                  # µs per request, every cell
    python -m bench.profile --profile get --variant services # pyinstrument's call tree
    python -m bench.profile --gc                             # what is left to the collector
    BENCH_ENGINE=postgresql python -m bench.profile
    python -m bench.profile --asgi                           # under Django's ASGI handler
    python -m bench.profile --count create --calls 220       # only send requests (valgrind)

Requests go straight to the WSGI application (with `--asgi`, to the ASGI application of
`django_services.asgi.get_asgi_application()`, awaited in one event loop), one after another,
and the figures are the CPU time of this process per request: far less noise than the HTTP
figures on a busy machine, and Python's share of each request (plus SQLite's, which runs
in-process). Created people are
deleted at the end.

The least noisy figure of all is the instruction count, which does not move with the load of
the machine: `--count WORKLOAD` sends `--calls` requests of one cell (`--variant`) after 50 to
warm up, and prints nothing. Run it under valgrind with two numbers of calls; the difference
of the two counts, divided by the difference of the calls, is the instructions per request:

    valgrind --tool=cachegrind --cache-sim=no python -m bench.profile --count create --calls 20
    valgrind --tool=cachegrind --cache-sim=no python -m bench.profile --count create --calls 220

Writes publish no events here, as in the HTTP benchmarks; `--publisher` sets the socket
benchmark's publisher, so that each write also logs its event (the event log of socket.io's
connection state recovery), and `--subscribe` puts a subscriber on the event bus, as a
socket.io server process has, so that each write also schedules and publishes its event.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import os
import random
import sys
import time
from collections.abc import Callable
from statistics import median
from typing import Any
from urllib.parse import urlsplit

Call = Callable[[], bytes]

#: Requests sent before any is counted (`--count`): caches, connections, the first queries.
WARM_UP = 50


def make_call(application: Any, method: str, path: str, body: str | None) -> Call:
    """A function sending one request to the WSGI application and returning the body."""
    parts = urlsplit(path)
    payload = (body or "").encode()
    base = {
        "REQUEST_METHOD": method,
        "PATH_INFO": parts.path,
        "QUERY_STRING": parts.query,
        "RAW_URI": path,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(payload)),
    }
    if body:
        base["CONTENT_TYPE"] = "application/json"

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        if not status.startswith(("200", "201")):
            raise RuntimeError(f"{method} {path}: {status}")

    def call() -> bytes:
        environ = {**base, "wsgi.input": io.BytesIO(payload)}
        response = application(environ, start_response)
        try:
            return b"".join(response)
        finally:
            # As a WSGI server does: Django ends the request there (`request_finished`).
            response.close()

    return call


def make_asgi_call(
    application: Any, loop: asyncio.AbstractEventLoop, method: str, path: str, body: str | None
) -> Call:
    """A function sending one request to the ASGI application, in `loop`, returning the body."""
    parts = urlsplit(path)
    payload = (body or "").encode()
    headers = [(b"host", b"127.0.0.1"), (b"content-length", str(len(payload)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": parts.path,
        "raw_path": parts.path.encode(),
        "query_string": parts.query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }

    async def request() -> bytes:
        sent: list[dict[str, Any]] = []
        received = asyncio.Event()

        async def receive() -> dict[str, Any]:
            if not received.is_set():
                received.set()
                return {"type": "http.request", "body": payload, "more_body": False}
            await asyncio.Event().wait()  # the client never disconnects
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await application(dict(scope), receive, send)
        if sent[0]["status"] not in (200, 201):
            raise RuntimeError(f"{method} {path}: {sent[0]['status']}")
        return b"".join(message.get("body", b"") for message in sent[1:])

    return lambda: loop.run_until_complete(request())


def workload_call(
    application: Any,
    workload: Any,
    variant: str,
    rows: int,
    loop: asyncio.AbstractEventLoop | None = None,
) -> Call:
    """A call of the cell (to the ASGI application in `loop`, if given); random ids for `get`."""

    def make(method: str, path: str, body: str | None) -> Call:
        if loop is not None:
            return make_asgi_call(application, loop, method, path, body)
        return make_call(application, method, path, body)

    if not workload.random_id:
        request = workload.request(variant)
        return make(request.method, request.path, request.body)
    calls = [
        make("GET", workload.request(variant, id=pk).path, None)
        for pk in random.Random(1).sample(range(1, rows + 1), 500)
    ]
    counter = iter(range(1 << 62))
    return lambda: calls[next(counter) % len(calls)]()


def time_call(call: Call, seconds: float) -> float:
    """
    CPU microseconds of this process per call, over about `seconds` after a warm-up.

    CPU time rather than wall time: other processes of a busy machine barely change it. It
    includes SQLite's work (in-process) but not PostgreSQL's (another process).
    """
    for _ in range(20):
        call()
    done, started, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            call()
        done += 20
    return (time.process_time() - cpu) / done * 1e6


def garbage_figures(call: Call, requests: int = 500) -> tuple[float, float, float]:
    """
    What a call leaves to the garbage collector: objects in reference cycles per call, then,
    with the collector on, collections and their pause (µs) per call.
    """
    for _ in range(20):
        call()
    gc.collect()
    gc.disable()
    try:
        for _ in range(requests):
            call()
    finally:
        gc.enable()
    cyclic = gc.collect() / requests
    paused, started = [0.0], [0.0]

    def timer(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            paused[0] += time.perf_counter() - started[0]

    before = sum(generation["collections"] for generation in gc.get_stats())
    gc.callbacks.append(timer)
    try:
        for _ in range(requests):
            call()
    finally:
        gc.callbacks.remove(timer)
    collections = sum(generation["collections"] for generation in gc.get_stats()) - before
    return cyclic, collections / requests, paused[0] / requests * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", metavar="WORKLOAD", help="print a pyinstrument profile")
    parser.add_argument("--variant", default="services", choices=["services", "drf", "plain"])
    parser.add_argument("--seconds", type=float, default=1.0, help="per cell (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per cell (default 3)")
    parser.add_argument(
        "--gc", action="store_true", help="what each cell leaves to the garbage collector"
    )
    parser.add_argument(
        "--asgi", action="store_true", help="requests to the ASGI application, not the WSGI one"
    )
    parser.add_argument(
        "--count", metavar="WORKLOAD", help="only send --calls requests (to count instructions)"
    )
    parser.add_argument("--calls", type=int, default=200, help="with --count (default 200)")
    parser.add_argument(
        "--publisher",
        action="store_true",
        help="the socket benchmark's publisher: each write logs its event",
    )
    parser.add_argument(
        "--subscribe",
        action="store_true",
        help="a subscriber on the event bus, as in a socket.io server process",
    )
    args = parser.parse_args(argv)
    if args.calls < 0:
        parser.error("--calls must be 0 or more")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    if args.publisher:
        os.environ["BENCH_SOCKETS"] = "1"
    loop: asyncio.AbstractEventLoop | None = None
    if args.asgi:
        from django_services.asgi import get_asgi_application

        application = get_asgi_application()
        loop = asyncio.new_event_loop()
    else:
        from django.core.wsgi import get_wsgi_application

        application = get_wsgi_application()
    from .people.models import Person
    from .workloads import ALL, BY_NAME

    if args.subscribe:
        from django_services.server.pipeline.events import event_bus

        event_bus.subscribe(lambda event: None)

    for workload in (args.count, args.profile):
        if workload is not None and workload not in BY_NAME:
            parser.error(f"no workload {workload!r}: one of {', '.join(BY_NAME)}")

    rows = int(os.environ.get("BENCH_ROWS", "100000"))
    try:
        if args.count:
            call = workload_call(application, BY_NAME[args.count], args.variant, rows, loop)
            for _ in range(WARM_UP + args.calls):
                call()
            return 0
        if args.profile:
            from pyinstrument import Profiler

            call = workload_call(application, BY_NAME[args.profile], args.variant, rows, loop)
            time_call(call, 0.2)
            with Profiler(interval=0.0002) as profiler:
                time_call(call, args.seconds * 3)
            print(profiler.output_text(unicode=True, color=False, show_all=False))
            return 0
        cells = {
            (workload.name, variant): workload_call(application, workload, variant, rows, loop)
            for workload in ALL
            for variant in workload.variants
        }
        if args.gc:
            for (name, variant), call in cells.items():
                cyclic, collections, pause = garbage_figures(call)
                print(
                    f"{name:17} {variant:9} {cyclic:6.0f} objects in cycles, "
                    f"{collections * 1000:4.0f} collections per 1000 calls, "
                    f"{pause:5.0f} µs of pauses per call"
                )
            return 0
        # Rounds outside, cells inside: a slow moment of the machine hits every cell alike.
        samples: dict[tuple[str, str], list[float]] = {cell: [] for cell in cells}
        for _ in range(args.rounds):
            for cell, call in cells.items():
                samples[cell].append(time_call(call, args.seconds))
        for (name, variant), values in samples.items():
            line = f"{name:17} {variant:9} {median(values):8.0f} µs"
            if variant == "services" and (name, "drf") in samples:
                versus = [
                    values[index] / samples[name, other][index]
                    for other in ("drf", "plain")
                    for index in range(args.rounds)
                ]
                drf, plain = median(versus[: args.rounds]), median(versus[args.rounds :])
                line += f"   cost vs drf {drf:.2f}x, vs plain {plain:.2f}x"
            print(line)
    finally:
        Person.objects.filter(pk__gt=rows).delete()
        if loop is not None:
            loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""
What a remote's production machinery costs per call: the client's CPU time per `get` of a
remote (`REMOTES`, over requests) against a tiny keep-alive JSON server in another process.

    python -m bench.remote_cost --calls 3000 --rounds 5

* **transport** - `rest_client(url).requests(session)`: no remote, no breaker, no trace.
* **remote** - `remotes["bench"]` as configured by default (circuit breaker on, the incoming
  request's trace context sent), called for a request carrying `traceparent` and
  `X-Request-ID`.
* **remote, breaker only** - the same remote with `"PROPAGATE": False`: no header more.
* **remote, off** - the same remote with `"BREAKER": False, "PROPAGATE": False`.
* **remote + OpenTelemetry** - the default remote with the OpenTelemetry SDK's tracer (spans to
  an exporter that drops them) and meter providers installed; only where `opentelemetry-sdk`
  is.

`--otel` installs those providers first, and also times the SDK's own parts of a call (a
client span started and ended, a histogram record, the context injected) in the same process;
`--without-otel` hides `opentelemetry` from the process, as where it is not installed.

The variants take turns every 50 calls. Run with another checkout first on `PYTHONPATH` to
compare a version that has none of this (its remote variants then measure its own remotes).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from statistics import median
from typing import Any

SERVER = r"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def do_GET(self):
        body = json.dumps({"id": self.path.rsplit("/", 1)[-1], "name": "Ada"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""

CHUNK = 50
INCOMING = {
    "HTTP_TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "HTTP_X_REQUEST_ID": "bench-request",
}


def _configure(base: str) -> None:
    import django
    from django.conf import settings

    remote = {"BASE_URL": base, "TIMEOUT": 10}
    remotes = {"bench": remote}
    try:
        from django_services.conf import REMOTE_DEFAULTS
    except ImportError:  # pragma: no cover - an old checkout
        REMOTE_DEFAULTS = {}
    if "BREAKER" in REMOTE_DEFAULTS:
        remotes["off"] = {**remote, "BREAKER": False, "PROPAGATE": False}
        remotes["breaker"] = {**remote, "PROPAGATE": False}
    settings.configure(
        INSTALLED_APPS=["django_services"],
        DATABASES={},
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
        DJANGO_SERVICES={"REMOTES": remotes},
        USE_TZ=True,
    )
    django.setup()


def _install_opentelemetry() -> bool:
    try:
        from opentelemetry import metrics, trace
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter
        from opentelemetry.sdk.trace.export import SpanExportResult as Result
    except ImportError:
        return False

    class Dropped(SpanExporter):
        def export(self, spans: Any) -> Any:
            return Result.SUCCESS

    provider = TracerProvider()
    # Spans are exported in the calling thread, so their whole cost is in the figure.
    provider.add_span_processor(SimpleSpanProcessor(Dropped()))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[InMemoryMetricReader()]))
    return True


def sdk_costs(repeat: int = 5, number: int = 20000) -> dict[str, float]:
    """Microseconds of the OpenTelemetry SDK's own parts of a call (the providers installed)."""
    import timeit

    from opentelemetry import propagate, trace

    from django_services.client import telemetry

    tracer = trace.get_tracer("bench")
    parent = propagate.extract({"traceparent": INCOMING["HTTP_TRACEPARENT"]})
    attributes = {
        "feathers.remote": "bench",
        "feathers.service": "people",
        "feathers.method": "get",
        "server.address": "127.0.0.1",
        "server.port": 8000,
        "http.request.method": "GET",
        "url.full": "http://127.0.0.1:8000/people/1",
    }
    histogram = telemetry._instruments()["duration"]
    labels = {"feathers.remote": "bench", "feathers.service": "people", "feathers.method": "get"}
    span = tracer.start_span("bench")

    def started_and_ended() -> None:
        tracer.start_span(
            "bench people.get", context=parent, kind=trace.SpanKind.CLIENT, attributes=attributes
        ).end()

    def injected() -> None:
        propagate.inject({}, context=trace.set_span_in_context(span, parent))

    parts = {
        "span started and ended (7 attributes)": started_and_ended,
        "histogram record (3 attributes)": lambda: histogram.record(0.001, labels),
        "context injected": injected,
    }
    return {
        name: min(timeit.repeat(part, number=number, repeat=repeat)) / number * 1e6
        for name, part in parts.items()
    }


def _variants(base: str) -> dict[str, Any]:
    import requests
    from django.test import RequestFactory

    from django_services.client import rest_client
    from django_services.client.remotes import remotes

    request = RequestFactory().get("/", **INCOMING)
    variants = {
        "transport": rest_client(base).requests(requests.Session()).service("people").get,
        "remote": remotes["bench"].for_request(request).service("people").get,
    }
    if "off" in remotes:
        variants["remote, breaker only"] = remotes["breaker"].service("people").get
        variants["remote, off"] = remotes["off"].for_request(request).service("people").get
    return variants


def measure(variants: dict[str, Any], calls: int, rounds: int) -> dict[str, float]:
    """Median over rounds of each variant's client CPU microseconds per call."""
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for call in variants.values():
        for pk in range(50):
            call(pk)
    for round_index in range(rounds):
        spent = dict.fromkeys(variants, 0.0)
        for chunk in range(0, calls, CHUNK):
            names = list(variants) if (chunk // CHUNK + round_index) % 2 == 0 else [*variants][::-1]
            for name in names:
                call = variants[name]
                started = time.process_time()
                for pk in range(chunk, chunk + CHUNK):
                    call(pk)
                spent[name] += time.process_time() - started
        for name in variants:
            cpu[name].append(spent[name] / calls * 1e6)
    return {name: median(values) for name, values in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per variant and round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument(
        "--otel", action="store_true", help="install the OpenTelemetry SDK providers first"
    )
    parser.add_argument(
        "--without-otel", action="store_true", help="run as if opentelemetry were not installed"
    )
    args = parser.parse_args()
    if args.without_otel:
        sys.modules["opentelemetry"] = None  # type: ignore[assignment]
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True, close_fds=True
    )
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{server.stdout.readline().strip()}"
        _configure(base)
        installed = _install_opentelemetry() if args.otel else False
        results = measure(_variants(base), args.calls, args.rounds)
    finally:
        server.terminate()
        server.wait()
    try:
        from django_services.client.telemetry import ENABLED as enabled
    except ImportError:  # a checkout without it
        enabled = False
    print(f"opentelemetry-api importable: {enabled}; SDK providers installed: {installed}")
    print("| variant | client CPU µs/call | / transport |")
    print("|---|---|---|")
    for name, value in results.items():
        print(f"| {name} | {value:.1f} | {value / results['transport']:.3f} |")
    if installed:
        print("| the SDK's own part | µs |")
        print("|---|---|")
        for name, value in sdk_costs().items():
            print(f"| {name} | {value:.1f} |")


if __name__ == "__main__":
    main()

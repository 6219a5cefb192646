"""
A request that crosses two services can be followed: the caller's `traceparent` and
`X-Request-ID` go on with the remote call (REST headers, or the socket call's `$trace`), and
with OpenTelemetry installed the call is a client span of the same trace, the socket.io call
served upstream a server span, and the calls are counted on the meter.
"""

from __future__ import annotations

import pytest

from django_services.client import telemetry
from django_services.client.remotes import remotes
from django_services.clock import ManualClock

from .test_breaker import FAILURES, Caller, configure
from .upstream import FAILING

KINDS = ("requests", "httpx-async", "socketio", "socketio-async")
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
INCOMING = {
    "traceparent": f"00-{TRACE_ID}-{CALLER_SPAN}-01",
    "tracestate": "vendor=opaque",
    "X-Request-ID": "req-7f3a",
}

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=KINDS)
def kind(request):
    return request.param


@pytest.fixture
def caller(kind):
    caller = Caller(kind)
    yield caller
    caller.close()


@pytest.fixture
def upstream(settings, kind, transactional_db):
    from tests.server.socketio.conftest import LiveSocketServer

    server = LiveSocketServer().start()
    configure(settings, server.url, kind, read=10)  # every call here succeeds
    yield server
    FAILING.clear()
    remotes.close_all()
    server.stop()


_OTEL: dict[str, object] = {}


@pytest.fixture
def otel():
    """The process's OpenTelemetry providers, with in-memory exporters (set once)."""
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry import metrics, trace
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    if not _OTEL:
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
        from opentelemetry.sdk.metrics import Counter, Histogram
        from opentelemetry.sdk.metrics.export import AggregationTemporality

        delta = AggregationTemporality.DELTA
        reader = InMemoryMetricReader(preferred_temporality={Counter: delta, Histogram: delta})
        metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
        _OTEL.update(spans=exporter, metrics=reader)
    _OTEL["spans"].clear()
    _OTEL["metrics"].get_metrics_data()  # starts the counts of this test from what is there
    return _OTEL


def trace_id(traceparent: str) -> str:
    return traceparent.split("-")[1]


def test_the_callers_trace_context_and_request_id_reach_the_upstream(caller, upstream):
    status, answer, _ = caller.view(INCOMING)

    assert status == 200
    assert trace_id(answer["traceparent"]) == TRACE_ID
    assert answer["x-request-id"] == "req-7f3a"
    assert answer["tracestate"] == "vendor=opaque"
    assert answer["query"] == {}  # the socket call's $trace is taken out of the query
    if not telemetry.ENABLED:
        assert answer["traceparent"] == INCOMING["traceparent"]


def test_a_call_without_trace_context_sends_none(caller, upstream):
    status, answer, _ = caller.view()

    assert status == 200
    assert answer["x-request-id"] is None
    if not telemetry.ENABLED:
        assert answer["traceparent"] is None


def test_propagate_false_sends_nothing_of_the_request(settings, caller, upstream, kind):
    configure(settings, upstream.url, kind, read=10)  # every call here succeeds
    settings.DJANGO_SERVICES["REMOTES"]["up"]["PROPAGATE"] = False
    remotes.reset()

    status, answer, _ = caller.view(INCOMING)

    assert status == 200
    assert answer["x-request-id"] is None
    assert answer["traceparent"] is None or trace_id(answer["traceparent"]) != TRACE_ID


def test_one_trace_id_through_caller_client_and_upstream(otel, caller, upstream, kind):
    status, answer, _ = caller.view(INCOMING)

    assert status == 200
    spans = otel["spans"].get_finished_spans()
    client = [span for span in spans if span.kind.name == "CLIENT"]
    assert len(client) == 1
    client_span = client[0]
    assert f"{client_span.context.trace_id:032x}" == TRACE_ID
    assert f"{client_span.parent.span_id:016x}" == CALLER_SPAN
    assert client_span.name == "up flaky.find"
    attributes = client_span.attributes
    assert (attributes["feathers.service"], attributes["feathers.method"]) == ("flaky", "find")
    # The upstream received the client span's context: its child.
    sent = answer["traceparent"].split("-")
    assert sent[1:3] == [TRACE_ID, f"{client_span.context.span_id:016x}"]
    if kind.startswith("socketio"):
        assert attributes["rpc.system"] == "feathers"
        server = [span for span in spans if span.kind.name == "SERVER"]
        assert [span.name for span in server] == ["flaky.find"]
        assert f"{server[0].context.trace_id:032x}" == TRACE_ID
        assert server[0].parent.span_id == client_span.context.span_id
    else:
        assert attributes["http.request.method"] == "GET"
        assert attributes["url.full"] == f"{upstream.url}/flaky"
        assert attributes["server.address"] == "127.0.0.1"


def metric_points(reader) -> dict[str, list]:
    points: dict[str, list] = {}
    data = reader.get_metrics_data()
    for resource in data.resource_metrics if data else []:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points.setdefault(metric.name, []).extend(metric.data.data_points)
    return points


def value(points, name, **attributes) -> float:
    found = 0
    for point in points.get(name, []):
        if all(point.attributes.get(key) == item for key, item in attributes.items()):
            found += point.count if hasattr(point, "count") else point.value
    return found


@pytest.mark.parametrize("kind", ["requests", "socketio"])
def test_calls_errors_latency_and_breaker_are_counted(otel, caller, upstream, kind):
    remotes["up"].clock = ManualClock()
    reader = otel["metrics"]
    labels = {"feathers.remote": "up", "feathers.service": "flaky", "feathers.method": "find"}

    assert caller.view()[0] == 200
    FAILING.set()
    for _ in range(FAILURES + 1):
        assert caller.view()[0] == 503

    points = metric_points(reader)
    # The duration histogram's count is the calls; with error.type, the errors by class.
    assert value(points, "feathers.client.duration", **labels) == FAILURES + 2
    errors = {**labels, "error.type": "Unavailable"}
    assert value(points, "feathers.client.duration", **errors) == FAILURES + 1
    assert value(points, "feathers.client.breaker.openings", **{"feathers.remote": "up"}) == 1
    assert value(points, "feathers.client.breaker.open", **{"feathers.remote": "up"}) == 1.0
    if kind == "socketio":  # our server, upstream, measured the calls it served
        served = {"feathers.service": "flaky", "feathers.method": "find"}
        assert value(points, "feathers.server.socketio.duration", **served) == FAILURES + 1


@pytest.mark.parametrize("kind", ["requests"])
def test_retries_are_counted(otel, settings, caller, upstream):
    settings.DJANGO_SERVICES["REMOTES"]["up"]["RETRIES"] = 1
    settings.DJANGO_SERVICES["REMOTES"]["up"]["BREAKER"] = {"FAILURES": 5}
    remotes.reset()
    remotes["up"].clock = clock = ManualClock(auto=True)
    FAILING.set()

    assert caller.view()[0] == 503
    assert clock.waits == [1.0]  # the upstream's Retry-After

    points = metric_points(otel["metrics"])
    assert value(points, "feathers.client.retries", **{"feathers.remote": "up"}) == 1

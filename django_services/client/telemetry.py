"""
What the remote calls tell a collector: trace context, OpenTelemetry spans and metrics.

    DJANGO_SERVICES = {"REMOTES": {"billing": {"BASE_URL": "...", "PROPAGATE": True}}}

Every call of a remote carries the trace context (`traceparent`, `tracestate`) and the
`X-Request-ID` of the incoming request it was made for (`request.remotes`, or
`remote.for_request(request)`): as headers over REST; over socket.io, whose calls carry only
a query, in the query's `$trace`, which a django-feathers server takes out again.

With `opentelemetry-api` installed (`pip install 'django-feathers[otel]'`), each call is also a
client span, child of the current span (else of the incoming request's `traceparent`), whose
context is the one sent; and the calls, their errors, latency and retries, and the breakers'
openings are recorded on the meter `django_services`. Without it none of this costs a thing:
the import is tried once, here.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import time
import weakref
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import Any

from ..errors import FeathersError

try:
    import opentelemetry.context as otel_context
    import opentelemetry.metrics as otel_metrics
    import opentelemetry.propagate as propagate
    import opentelemetry.trace as trace
except ImportError:  # the optional extra is not installed: no spans, no metrics
    trace = None  # type: ignore[assignment]

__all__ = [
    "ENABLED",
    "TRACE_HEADERS",
    "TRACE_QUERY_KEY",
    "breaker_opened",
    "call_trace",
    "failed_span",
    "incoming_trace",
    "observed",
    "recording",
    "retried",
    "server_span",
    "watch",
    "with_trace",
]

#: Whether `opentelemetry-api` is installed: spans and metrics are recorded.
ENABLED = trace is not None

#: The headers of an incoming request sent on with each remote call (lower case).
TRACE_HEADERS = ("traceparent", "tracestate", "x-request-id")

#: The query key that carries them over socket.io.
TRACE_QUERY_KEY = "$trace"

_SCOPE = "django_services"

#: A flow of `_flow.py` (not imported: the flows import this module).
Flow = Generator[Any, Any, Any]

#: The breakers of the process, for the gauge of their state, each with the order it was made.
_breakers: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_made_breakers = itertools.count()


def incoming_trace(request: Any) -> dict[str, str]:
    """The trace headers of an incoming Django request (empty when it has none)."""
    headers = getattr(request, "headers", None)
    if headers is None:
        return {}
    found = {}
    for name in TRACE_HEADERS:
        value = headers.get(name)
        if isinstance(value, str) and value and len(value) <= 512:
            found[name] = value
    return found


def observed(
    remote: str,
    path: str,
    message: Any,
    incoming: Mapping[str, str],
    propagate_context: bool,
    send: Callable[[Any], Flow],
) -> Flow:
    """
    The flow `send(message)` of one call of `remote`'s service `path`, with the trace context
    added to `message` and, with OpenTelemetry providers set, inside a client span and measured.
    """
    span = None
    if ENABLED and _tracing():
        parent = otel_context.get_current()
        if incoming and not trace.get_current_span(parent).get_span_context().is_valid:
            parent = _extracted(incoming.get("traceparent"), incoming.get("tracestate"))
        span = _tracer().start_span(
            f"{remote} {path}.{message.service_method}",
            context=parent,
            kind=trace.SpanKind.CLIENT,
            attributes=_span_attributes(remote, path, message),
        )
        if propagate_context:
            carrier: dict[str, str] = {}
            propagate.inject(carrier, context=trace.set_span_in_context(span, parent))
            if "x-request-id" in incoming:
                carrier["x-request-id"] = incoming["x-request-id"]
            message = with_trace(message, carrier)
    elif incoming and propagate_context:
        message = with_trace(message, incoming)
    if span is None and not (ENABLED and _measuring()):
        return (yield from send(message))
    started = time.perf_counter()
    error_type = None
    try:
        return (yield from send(message))
    except BaseException as exc:
        error_type = _error_type(exc)
        if span is not None and span.is_recording():
            # No record_exception(): formatting a traceback for every call an open breaker
            # refuses would cost more than the call.
            span.set_status(trace.Status(trace.StatusCode.ERROR, str(exc)[:200]))
            span.set_attribute("error.type", error_type)
            if isinstance(exc, FeathersError) and isinstance(exc.code, int):
                span.set_attribute("feathers.error.code", exc.code)
        raise
    finally:
        if span is not None:
            span.end()
        # One record a call, its attributes made once per remote, service, method and error.
        _instruments()["duration"].record(
            time.perf_counter() - started,
            _metric_labels(remote, path, message.service_method, error_type),
        )


@functools.lru_cache(maxsize=256)
def _extracted(traceparent: str | None, tracestate: str | None) -> Any:
    """The context of an incoming request's trace headers, parsed once for all its calls."""
    carrier = {"traceparent": traceparent} if traceparent else {}
    if tracestate:
        carrier["tracestate"] = tracestate
    return propagate.extract(carrier)


def _tracing() -> bool:
    """Whether a tracer provider is set (the API's default one records nothing)."""
    return not isinstance(
        trace.get_tracer_provider(), (trace.ProxyTracerProvider, trace.NoOpTracerProvider)
    )


def _measuring() -> bool:
    """Whether a meter provider is set."""
    provider = otel_metrics.get_meter_provider()
    return not isinstance(provider, otel_metrics.NoOpMeterProvider) and (
        type(provider).__name__ != "_ProxyMeterProvider"
    )


def retried(remote: str, message: Any) -> None:
    """Count a retry of a call of `remote`."""
    if ENABLED:
        _instruments()["retries"].add(1, _metric_attributes(remote, message))


def watch(breaker: Any) -> None:
    """Report the state of `breaker` (a remote's) on the gauge `feathers.client.breaker.open`."""
    _breakers[breaker] = next(_made_breakers)


def breaker_opened(remote: str) -> None:
    """Count an opening of `remote`'s breaker."""
    if ENABLED:
        _instruments()["openings"].add(1, {"feathers.remote": remote})


def recording() -> bool:
    """Whether OpenTelemetry is installed and a tracer or meter provider is set."""
    return ENABLED and (_tracing() or _measuring())


def with_trace(message: Any, carrier: Mapping[str, str]) -> Any:
    """`message` (a REST request, or a socket call) carrying the trace headers `carrier`."""
    from dataclasses import replace

    if not carrier:
        return message
    headers = getattr(message, "headers", None)
    if headers is not None:  # a REST request
        return replace(message, headers={**headers, **carrier})
    args = getattr(message, "args", None)
    if args and isinstance(args[-1], Mapping):  # a socket call: the query is its last argument
        return replace(message, args=(*args[:-1], {**args[-1], TRACE_QUERY_KEY: carrier}))
    return message


def _span_attributes(remote: str, path: str, message: Any) -> dict[str, Any]:
    url = getattr(message, "url", None)
    if url is None:
        return _socket_attributes(remote, path, message.service_method)
    end = url.find("/", url.find("//") + 2)
    attributes = _rest_attributes(
        remote, path, message.service_method, message.method, url if end < 0 else url[:end]
    ).copy()
    attributes["url.full"] = url.split("?", 1)[0]
    return attributes


@functools.lru_cache(maxsize=1024)
def _socket_attributes(remote: str, path: str, method: str) -> dict[str, Any]:
    # The same dict for every call: the SDK copies a span's attributes, never changes them.
    return {
        "feathers.remote": remote,
        "feathers.service": path,
        "feathers.method": method,
        "rpc.system": "feathers",
        "rpc.service": path,
        "rpc.method": method,
    }


@functools.lru_cache(maxsize=1024)
def _rest_attributes(
    remote: str, path: str, method: str, http_method: str, origin: str
) -> dict[str, Any]:
    return {
        "feathers.remote": remote,
        "feathers.service": path,
        "feathers.method": method,
        **_server(origin),
        "http.request.method": http_method,
    }


@functools.lru_cache(maxsize=256)
def _server(origin: str) -> dict[str, Any]:
    from urllib.parse import urlsplit

    parts = urlsplit(origin)
    found: dict[str, Any] = {"server.address": parts.hostname or ""}
    if parts.port:
        found["server.port"] = parts.port
    return found


def _metric_attributes(remote: str, message: Any) -> dict[str, str]:
    return {"feathers.remote": remote, "feathers.method": message.service_method}


def _error_type(exc: BaseException) -> str:
    if isinstance(exc, FeathersError):
        return exc.name
    return type(exc).__qualname__


@functools.lru_cache(maxsize=1024)
def _metric_labels(remote: str, path: str, method: str, error_type: str | None) -> dict[str, str]:
    # One histogram: its count is the calls, and with `error.type` the errors by class.
    attributes = {"feathers.remote": remote, "feathers.service": path, "feathers.method": method}
    if error_type is not None:
        attributes["error.type"] = error_type
    return attributes


_made: dict[str, Any] = {}


def _tracer() -> Any:
    tracer = _made.get("tracer")
    if tracer is None:
        # The global provider's proxy: spans go to the provider set later, when one is.
        tracer = _made["tracer"] = trace.get_tracer(_SCOPE)
    return tracer


def _instruments() -> dict[str, Any]:
    instruments = _made.get("instruments")
    if instruments is not None:
        return instruments  # type: ignore[no-any-return]
    meter = otel_metrics.get_meter(_SCOPE)
    instruments = {
        "duration": meter.create_histogram(
            "feathers.client.duration",
            unit="s",
            description=(
                "How long calls of remote services took, retries included; its count is the "
                "calls, and with error.type the errors by Feathers class."
            ),
        ),
        "retries": meter.create_counter(
            "feathers.client.retries", unit="{retry}", description="Calls sent again."
        ),
        "served": meter.create_histogram(
            "feathers.server.socketio.duration",
            unit="s",
            description="How long the socket.io calls served took.",
        ),
        "openings": meter.create_counter(
            "feathers.client.breaker.openings",
            unit="{opening}",
            description="Times a remote's circuit breaker opened.",
        ),
    }
    meter.create_observable_gauge(
        "feathers.client.breaker.open",
        callbacks=[_open_breakers],
        unit="{breaker}",
        description="Whether a remote's circuit breaker is open (1) or half-open (0.5).",
    )
    _made["instruments"] = instruments
    return instruments


def _open_breakers(options: Any) -> Any:
    states = {}
    # The last breaker made for an alias wins: a change of settings replaces the remotes.
    for breaker, _ in sorted(_breakers.items(), key=lambda item: item[1]):
        state = breaker.state
        states[breaker.name] = 1.0 if state == "open" else 0.5 if state == "half-open" else 0.0
    for name, value in states.items():
        yield otel_metrics.Observation(value, {"feathers.remote": name})


def call_trace(query: dict[str, Any]) -> dict[str, str]:
    """
    Take the trace context out of a socket call's `query` (`$trace`, see above): the trace
    headers it holds, the others dropped. The query is left without it.
    """
    carrier = query.pop(TRACE_QUERY_KEY, None)
    if not isinstance(carrier, Mapping):
        return {}
    return {
        name: value
        for name, value in carrier.items()
        if name in TRACE_HEADERS and isinstance(value, str) and 0 < len(value) <= 512
    }


class _Served:
    """What the block of `server_span()` is given: the span, if any, and the error type."""

    __slots__ = ("error_type", "span")

    def __init__(self, span: Any = None) -> None:
        self.span = span
        self.error_type: str | None = None


@contextlib.contextmanager
def server_span(path: str, method: str, carrier: Mapping[str, str]) -> Iterator[Any]:
    """
    With OpenTelemetry providers set, a server span around a socket.io call of `method` on
    `path`, child of the context the call carried, and its duration recorded. The block is
    given what `failed_span()` takes (None without OpenTelemetry).
    """
    if not ENABLED:
        yield None
        return
    tracing, measuring = _tracing(), _measuring()
    if not (tracing or measuring):
        yield None
        return
    attributes = {"feathers.service": path, "feathers.method": method}
    started = time.perf_counter()
    if tracing:
        with _tracer().start_as_current_span(
            f"{path}.{method}",
            context=propagate.extract(carrier) if carrier else None,
            kind=trace.SpanKind.SERVER,
            attributes={"rpc.system": "feathers", "rpc.service": path, "rpc.method": method}
            | attributes,
        ) as span:
            served = _Served(span)
            yield served
    else:
        served = _Served()
        yield served
    if served.error_type is not None:
        attributes["error.type"] = served.error_type
    if measuring:
        _instruments()["served"].record(time.perf_counter() - started, attributes)


def failed_span(served: Any, error: Any) -> None:
    """Mark a socket.io call answered with the Feathers error JSON `error` as failed."""
    if served is None:
        return
    name = error.get("name") if isinstance(error, Mapping) else None
    served.error_type = error_type = name if isinstance(name, str) else "FeathersError"
    if served.span is not None:
        served.span.set_attribute("error.type", error_type)
        served.span.set_status(trace.Status(trace.StatusCode.ERROR, error_type))

"""
What the server tells a collector: its sockets and the events it delivers, and which service
and method a REST request called.

With `opentelemetry-api` installed (see `client/telemetry.py`), the meter `django_services`
reports the sockets each socket.io server holds (`feathers.server.socketio.connections`,
read when the metrics are collected: nothing is done per connection) and counts the events
delivered to them (`feathers.server.socketio.events`, one count per recipient, added once per
event); the span current around a REST call (the server span of Django's OpenTelemetry
instrumentation) is given the call's service and method. Without it, the calls below return
at once.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterator
from typing import Any

from ..client.telemetry import ENABLED

#: `opentelemetry.trace.get_current_span` (None without OpenTelemetry): a REST view reads the
#: current span itself, and calls `rest_call()` only when it records.
current_span: Any = None
if ENABLED:
    import opentelemetry.metrics as otel_metrics
    from opentelemetry.trace import get_current_span as current_span

__all__ = ["ENABLED", "current_span", "delivered", "rest_call", "serve"]

#: The socket.io servers of the process, whose sockets the gauge counts.
_servers: weakref.WeakSet[Any] = weakref.WeakSet()
_made: dict[str, Any] = {}


def serve(server: Any) -> None:
    """Count the sockets of `server` (a `SocketServer`: its `connections`) on the gauge."""
    if ENABLED:
        _servers.add(server)
        _events_counter()


def delivered(event: str, recipients: int) -> None:
    """Count the event named `event` (`"<path> <event>"`) given to `recipients` sockets."""
    if ENABLED and recipients:
        attributes = _event_attributes(event)
        if attributes is not None:
            _events_counter().add(recipients, attributes)


def rest_call(span: Any, path: str | None, method: str, request: Any, id: Any) -> None:
    """
    Give `span`, the recording span current around a REST call of `method` on `path`, the
    call's service and method, as the socket.io server span has them, and its `http.route`:
    the service's URL template (`/api/users/:userId/notes/:id`).
    """
    service = path or ""
    span.set_attributes(
        {
            "feathers.service": service,
            "feathers.method": method,
            "rpc.system": "feathers",
            "rpc.service": service,
            "rpc.method": method,
            "http.route": _route(request, service, id is not None),
        }
    )


def _route(request: Any, path: str, has_id: bool) -> str:
    # The mount: what the URLconf matched before the services' own pattern took the rest.
    match = getattr(request, "resolver_match", None)
    rest = match.kwargs.get("path") if match is not None else None
    full = request.path_info
    mount = full[: len(full) - len(rest)] if isinstance(rest, str) and full.endswith(rest) else "/"
    return f"{mount.rstrip('/')}/{path}{'/:id' if has_id else ''}"


@functools.lru_cache(maxsize=1024)
def _event_attributes(event: str) -> dict[str, str] | None:
    path, _, name = event.rpartition(" ")
    if not path:
        return None  # not a service event
    return {"feathers.service": path, "feathers.event": name}


def _events_counter() -> Any:
    counter = _made.get("events")
    if counter is not None:
        return counter
    # The API's proxy meter: the instruments reach the provider set later, when one is.
    meter = otel_metrics.get_meter("django_services")
    meter.create_observable_up_down_counter(
        "feathers.server.socketio.connections",
        callbacks=[_connections],
        unit="{connection}",
        description="The sockets connected to the process's socket.io servers.",
    )
    counter = _made["events"] = meter.create_counter(
        "feathers.server.socketio.events",
        unit="{event}",
        description="Service events delivered to sockets, one per recipient.",
    )
    return counter


def _connections(options: Any) -> Iterator[Any]:
    yield otel_metrics.Observation(sum(len(server.connections) for server in list(_servers)))

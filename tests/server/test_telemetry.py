"""
What the server tells OpenTelemetry: the service and method of a call on the span around it,
over REST and socket.io; the sockets connected, and the events delivered to them.
"""

from __future__ import annotations

import asyncio

import pytest
import requests

from tests.client.test_telemetry import metric_points, otel, value  # noqa: F401
from tests.server.socketio.conftest import (  # noqa: F401
    connect,
    live_socket_server,
    services_settings,
    transport,
)
from tests.server.socketio.test_channels import logged_in
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHER = "tests.interop.conformance.realtime.ConformancePublisher"


def span_around(get_response):
    """A server span around each request, as Django's OpenTelemetry instrumentation makes."""
    from opentelemetry import trace

    tracer = trace.get_tracer("tests")

    def middleware(request):
        with tracer.start_as_current_span("request", kind=trace.SpanKind.SERVER):
            return get_response(request)

    return middleware


@pytest.fixture
def spanned(otel, settings, services_settings):  # noqa: F811
    settings.MIDDLEWARE = [f"{__name__}.span_around", *settings.MIDDLEWARE]
    settings.DJANGO_SERVICES = {**services_settings, "SOCKETIO_PUBLISHER": PUBLISHER}
    return otel


def served_spans(otel, name):  # noqa: F811
    return [
        span
        for span in otel["spans"].get_finished_spans()
        if span.kind.name == "SERVER" and span.name == name
    ]


@pytest.mark.parametrize("carrier", ["rest", "socketio"])
async def test_the_span_of_a_call_names_its_service_and_method(
    spanned,
    live_socket_server,  # noqa: F811
    connect,  # noqa: F811
    carrier,
):
    if carrier == "rest":
        created = await asyncio.to_thread(
            requests.post, f"{live_socket_server.url}/people", json={"name": "Ada"}, timeout=10
        )
        assert created.status_code == 201
        url = f"{live_socket_server.url}/people/{created.json()['id']}"
        assert (await asyncio.to_thread(requests.patch, url, json={}, timeout=10)).ok
        create, patch = served_spans(spanned, "request")
        # The service's URL template, not the services' catch-all URL pattern.
        assert (create.attributes["http.route"], patch.attributes["http.route"]) == (
            "/people",
            "/people/:id",
        )
    else:
        client = await connect()
        person = await client.call("create", "people", {"name": "Ada"}, {})
        await client.call("patch", "people", person["id"], {}, {})
        create, patch = served_spans(spanned, "people.create") + served_spans(
            spanned, "people.patch"
        )
    for span, method in ((create, "create"), (patch, "patch")):
        attributes = span.attributes
        assert (attributes["feathers.service"], attributes["feathers.method"]) == (
            "people",
            method,
        )
        assert (
            attributes["rpc.system"],
            attributes["rpc.service"],
            attributes["rpc.method"],
        ) == ("feathers", "people", method)


def people_created(client):
    return sum(event == "people created" for event, _ in client.events)


async def connections_are(reader, count):
    await eventually_async(
        lambda: value(metric_points(reader), "feathers.server.socketio.connections") == count,
        message=f"{count} sockets connected",
    )


async def test_connected_sockets_and_delivered_events_are_counted(
    spanned,
    live_socket_server,  # noqa: F811
    connect,  # noqa: F811
):
    reader = spanned["metrics"]
    before = value(metric_points(reader), "feathers.server.socketio.connections")
    # The default publisher sends the events to the logged-in sockets.
    clients = [(await logged_in(connect, f"u{n}@example.com"))[0] for n in range(3)]
    await connections_are(reader, before + 3)

    for name in ("Ada", "Grace"):
        await clients[0].call("create", "people", {"name": name}, {})
    await eventually_async(
        lambda: all(people_created(client) == 2 for client in clients),
        message="both events reach every socket",
    )

    points = metric_points(reader)
    delivered = {"feathers.service": "people", "feathers.event": "created"}
    assert value(points, "feathers.server.socketio.events", **delivered) == 6
    await clients[2].close()
    await connections_are(reader, before + 2)

"""
An upstream the remotes' production tests call: our own server (REST and socket.io on one
port) behind a proxy that refuses connections or never answers, and a service that can be
made to answer 503 with `Retry-After`, as a database that went away does; the views that
call it, timing the call (the URLconf of the tests).
"""

from __future__ import annotations

import threading
import time

from django.db import InterfaceError
from django.http import JsonResponse
from django.urls import include, path

from django_services.errors import FeathersError
from django_services.server import Service

#: Set: `FlakyService` answers every call with 503 and `Retry-After`.
FAILING = threading.Event()


class FlakyService(Service):
    """Public; tells what trace headers the call carried, or fails as a lost database does."""

    authentication_classes = []

    def find(self, params):
        if FAILING.is_set():
            # A transient database error: 503 with Retry-After over REST, data.retryAfter over
            # socket.io.
            raise InterfaceError("the connection to the database was lost")
        return {
            "traceparent": params.headers.get("traceparent"),
            "tracestate": params.headers.get("tracestate"),
            "x-request-id": params.headers.get("x-request-id"),
            "query": dict(params.query),
        }


def _timed(status_and_body, seconds):
    response = JsonResponse(status_and_body[1], status=status_and_body[0], safe=False)
    response["X-Call-Seconds"] = f"{seconds:.6f}"
    return response


def call_flaky(request):
    """A view calling `flaky` on the remote `up`; `X-Call-Seconds` is how long the call took."""
    service = request.remotes["up"].service("flaky")
    started = time.perf_counter()
    try:
        answer = (200, service.find())
    except FeathersError as error:
        answer = (error.code, error.to_json())
    return _timed(answer, time.perf_counter() - started)


async def acall_flaky(request):
    """The same, in an async view, for the remotes with async connections."""
    service = request.remotes["up"].service("flaky")
    started = time.perf_counter()
    try:
        answer = (200, await service.find())
    except FeathersError as error:
        answer = (error.code, error.to_json())
    return _timed(answer, time.perf_counter() - started)


urlpatterns = [
    path("views/up/flaky/", call_flaky),
    path("async-views/up/flaky/", acall_flaky),
    path("", include("tests.remotes.urls")),
]

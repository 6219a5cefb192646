"""
An upstream the remotes' production tests call: our own server (REST and socket.io on one
port) behind a proxy that refuses connections or never answers, and a service that can be
made to answer 503 with `Retry-After`, as a database that went away does.
"""

from __future__ import annotations

import threading

from django.db import InterfaceError

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

"""
What the server saw, for the cache tests: the validators each request carried (from Django's
`request_started`) and the bodies the versioned service built.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.signals import request_started

from tests.server.conditional_services import VersionedSerializer, VersionedService

#: One `(path, If-None-Match, Authorization)` per request, in order.
REQUESTS: list[tuple[str, str | None, str | None]] = []
#: The ids of the records whose representation was built.
BODIES: list[int] = []


class CountedSerializer(VersionedSerializer):
    def to_representation(self, instance: Any) -> Any:
        BODIES.append(instance.pk)
        return super().to_representation(instance)


class CountedVersionedService(VersionedService):
    """The versioned service, noting each body it builds."""

    serializer_class = CountedSerializer


def _note(sender: Any, environ: Any = None, **kwargs: Any) -> None:
    if environ is not None:
        path = environ.get("PATH_INFO", "")
        if environ.get("QUERY_STRING"):
            path += "?" + environ["QUERY_STRING"]
        REQUESTS.append(
            (path, environ.get("HTTP_IF_NONE_MATCH"), environ.get("HTTP_AUTHORIZATION"))
        )


@contextmanager
def observed() -> Iterator[None]:
    """Note the requests and bodies the server sees while inside."""
    REQUESTS.clear()
    BODIES.clear()
    request_started.connect(_note)
    try:
        yield
    finally:
        request_started.disconnect(_note)

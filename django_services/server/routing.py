"""
Service paths as Feathers routes them.

    router = Router()
    router.add(Route.parse("users/:userId/notes", NoteService))
    router.match(["users", "42", "notes", "7"])
    # Match(route=<users/:userId/notes>, id="7", params={"userId": "42"})

Paths may hold slashes and `:placeholders`. Matching is case-sensitive; a static segment beats
a placeholder whatever the registration order (`messages/stats` is its own service, not
`messages.get("stats")`); placeholders are tried in registration order; a service takes one
more segment as its id; empty inner segments and extra segments match nothing.

`request_segments` splits a request path into decoded segments. Django decodes `PATH_INFO`, so
an encoded slash (`%2F`) inside an id cannot be told from a separator, except where the server
hands over the raw path: gunicorn's `RAW_URI` and ASGI's `raw_path` are used when present.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

from ..errors import NotFound

__all__ = [
    "Match",
    "Route",
    "Router",
    "normalize_path",
    "not_found_response",
    "request_segments",
]


def normalize_path(path: str) -> str:
    """
    Check a service path and return it without leading and trailing slashes.

    Raises ImproperlyConfigured for an empty path, an empty segment (`a//b`), a placeholder
    without a name, or a placeholder name used twice.
    """
    if not isinstance(path, str):
        raise ImproperlyConfigured(f"A service path must be a string, not {path!r}.")
    normalized = path.strip("/")
    if not normalized:
        raise ImproperlyConfigured(f"The service path {path!r} is empty.")
    names: set[str] = set()
    for segment in normalized.split("/"):
        if not segment:
            raise ImproperlyConfigured(f"The service path {path!r} has an empty segment.")
        if segment.startswith(":"):
            name = segment[1:]
            if not name:
                raise ImproperlyConfigured(
                    f"The service path {path!r} has a placeholder without a name."
                )
            if name in names:
                raise ImproperlyConfigured(
                    f"The service path {path!r} uses the placeholder {segment!r} twice."
                )
            names.add(name)
    return normalized


@dataclasses.dataclass(frozen=True)
class Route:
    """A service at a path: its class and its options."""

    path: str
    service_class: type[Any]
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    _built: dict[str, Any] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def segments(self) -> tuple[str, ...]:
        """The path split on `/`; placeholders keep their leading colon."""
        return tuple(self.path.split("/"))

    def built(self, key: str, build: Callable[[Route], Any]) -> Any:
        """
        What a transport builds once for the route (the REST adapter its view): `build(route)`
        on first use, kept with the route under `key`, so that routes read again from changed
        settings build theirs again.
        """
        built = self._built
        if key not in built:
            built[key] = build(self)
        return built[key]

    def instance(self) -> Any:
        """A service instance for calls made in Python (no HTTP request)."""
        return self.service_class(path=self.path, **self.options)


@dataclasses.dataclass(frozen=True)
class Match:
    """The result of a lookup: the route, the id segment (or None), the placeholder values."""

    route: Route
    id: str | None
    params: dict[str, str]


class _Node:
    __slots__ = ("placeholders", "route", "static")

    def __init__(self) -> None:
        self.static: dict[str, _Node] = {}
        self.placeholders: list[tuple[str, _Node]] = []
        self.route: Route | None = None


class Router:
    """A tree of service paths, looked up as Feathers' router does."""

    def __init__(self, routes: Sequence[Route] = ()) -> None:
        self._root = _Node()
        self._routes: list[Route] = []
        for route in routes:
            self.add(route)

    @property
    def routes(self) -> list[Route]:
        """The routes, in registration order."""
        return list(self._routes)

    def add(self, route: Route) -> None:
        """Add a route; raises ImproperlyConfigured when its path is already taken."""
        node = self._root
        for segment in route.segments:
            if segment.startswith(":"):
                name = segment[1:]
                for existing, child in node.placeholders:
                    if existing == name:
                        node = child
                        break
                else:
                    child = _Node()
                    node.placeholders.append((name, child))
                    node = child
            else:
                node = node.static.setdefault(segment, _Node())
        if node.route is not None:
            raise ImproperlyConfigured(
                f"Two services are registered at {route.path!r}: "
                f"{node.route.service_class.__qualname__} and {route.service_class.__qualname__}."
            )
        node.route = route
        self._routes.append(route)

    def match(self, segments: Sequence[str]) -> Match | None:
        """Find the service for decoded path segments, or None."""
        if not segments or any(not segment for segment in segments):
            return None
        return _lookup(self._root, segments, 0, {})


def _lookup(
    node: _Node, segments: Sequence[str], index: int, params: dict[str, str]
) -> Match | None:
    if index == len(segments):
        return Match(node.route, None, params) if node.route is not None else None
    segment = segments[index]
    child = node.static.get(segment)
    if child is not None:
        found = _lookup(child, segments, index + 1, params)
        if found is not None:
            return found
    for name, child in node.placeholders:
        found = _lookup(child, segments, index + 1, {**params, name: segment})
        if found is not None:
            return found
    if node.route is not None and index == len(segments) - 1:
        return Match(node.route, segment, params)
    return None


def request_segments(request: HttpRequest, remainder: str) -> list[str] | None:
    """
    The decoded segments of `remainder`, the part of the request path after the mount.

    Each segment is percent-decoded once. With a raw path from the server, `%2F` stays inside
    its segment. Leading and trailing slashes are ignored. None when the path cannot be
    decoded.
    """
    raw = _raw_path(request)
    if raw is not None:
        try:
            decoded = [unquote(part, errors="strict") for part in raw.split("/")]
        except UnicodeDecodeError:
            decoded = []
        if decoded and "/".join(decoded) == request.path:
            mount = request.path[: len(request.path) - len(remainder)]
            return _strip_ends(decoded[mount.count("/") :])
    return _strip_ends(remainder.split("/"))


def _raw_path(request: HttpRequest) -> str | None:
    raw = request.META.get("RAW_URI")
    if not raw:
        scope = getattr(request, "scope", None)
        raw_bytes = scope.get("raw_path") if isinstance(scope, Mapping) else None
        if not raw_bytes:
            return None
        raw = raw_bytes.decode("latin-1")
    if "://" in raw.split("?", 1)[0]:
        return urlsplit(raw).path
    return raw.split("?", 1)[0]


def _strip_ends(parts: list[str]) -> list[str]:
    start, end = 0, len(parts)
    while start < end and not parts[start]:
        start += 1
    while end > start and not parts[end - 1]:
        end -= 1
    return parts[start:end]


def not_found_response(request: HttpRequest) -> HttpResponse:
    """Feathers' answer for a path no service serves: 404 `Page not found` with the url."""
    error = NotFound("Page not found", {"url": request.get_full_path()})
    body = json.dumps(error.to_json(), separators=(",", ":"), ensure_ascii=False)
    return HttpResponse(body, status=404, content_type="application/json; charset=utf-8")

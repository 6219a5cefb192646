"""
Which service answers at which path: from settings, or registered in code.

    DJANGO_SERVICES = {"SERVICES": {
        "api/v1/messages": "chat.services.MessageService",
        "users/:userId/notes": {"class": "notes.services.NoteService", "multi": True},
    }}

    register("todos", TodoService, paginate={"default": 10, "max": 50})   # e.g. in ready()
    get_service("api/v1/messages").find(Params(query={"read": "false"}))   # an internal call

    urlpatterns = [path("", include("django_services.urls"))]   # REST serves them all

A setting value is a dotted path (or class), or a dict with the dotted path under `"class"`
and options (class attributes of the service) beside it. When `DJANGO_SERVICES` holds an
`AUTHENTICATION` dict, the authentication service is served at its `SERVICE_PATH`. Settings
are read on first use and again after `DJANGO_SERVICES` changes (`override_settings`).

Paths are routed as Feathers routes them (`Router`): they may hold slashes and
`:placeholders`; matching is case-sensitive; a static segment beats a placeholder whatever the
registration order (`messages/stats` is its own service, not `messages.get("stats")`);
placeholders are tried in registration order; a service takes one more segment as its id;
empty inner segments and extra segments match nothing. Django decodes `PATH_INFO`, so an
encoded slash (`%2F`) inside an id cannot be told from a separator, except where the server
hands over the raw path: `request_segments` uses gunicorn's `RAW_URI` and ASGI's `raw_path`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.http import HttpRequest

from ..conf import SETTINGS_NAME, import_from_string, services_settings
from .services.base_service import BaseService

__all__ = [
    "Match",
    "Route",
    "Router",
    "ServiceRegistry",
    "declared_routes",
    "get_service",
    "normalize_path",
    "register",
    "request_segments",
    "services",
    "unregister",
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


class ServiceRegistry:
    """The services of the project: those of the settings plus those registered in code."""

    def __init__(self) -> None:
        self._registered: dict[str, Route] = {}
        self._router: Router | None = None
        self._lock = threading.RLock()

    def register(self, path: str, service_class: type, **options: Any) -> Route:
        """Serve `service_class` at `path`, with options (class attributes) set."""
        route = Route(normalize_path(path), service_class, dict(options))
        with self._lock:
            if route.path in self._registered:
                raise ImproperlyConfigured(f"A service is already registered at {route.path!r}.")
            self._registered[route.path] = route
            self._router = None
        return route

    def unregister(self, path: str) -> None:
        """Stop serving the service registered in code at `path`."""
        with self._lock:
            del self._registered[normalize_path(path)]
            self._router = None

    def reset(self) -> None:
        """Forget the routes built from settings; they are read again on next use."""
        with self._lock:
            self._router = None

    @property
    def router(self) -> Router:
        """The router of every service, built on first use."""
        router = self._router
        if router is None:
            with self._lock:
                router = self._router
                if router is None:
                    router = Router([*self.settings_routes(), *self._registered.values()])
                    self._router = router
        return router

    def routes(self) -> list[Route]:
        """Every route, settings first, in declaration order."""
        return self.router.routes

    def get_route(self, path: str) -> Route:
        """The route registered at `path` (placeholders as declared); KeyError if none."""
        normalized = path.strip("/")
        for route in self.routes():
            if route.path == normalized:
                return route
        known = ", ".join(repr(route.path) for route in self.routes()) or "none"
        raise KeyError(f"No service is registered at {path!r}. Registered: {known}.")

    def settings_routes(self) -> list[Route]:
        """The routes declared in `DJANGO_SERVICES` (SERVICES, and AUTHENTICATION)."""
        routes = []
        for path, value in services_settings.SERVICES.items():
            routes.append(self._route_from_setting(path, value))
        authentication = self._authentication_route()
        if authentication is not None:
            routes.append(authentication)
        return routes

    @staticmethod
    def _authentication_route() -> Route | None:
        if "AUTHENTICATION" not in services_settings.user_settings:
            return None
        config = services_settings.AUTHENTICATION
        service_class = import_from_string(
            config["SERVICE_CLASS"], "['AUTHENTICATION']['SERVICE_CLASS']"
        )
        return Route(normalize_path(config["SERVICE_PATH"]), service_class)

    @staticmethod
    def _route_from_setting(path: str, value: Any) -> Route:
        setting = f"['SERVICES'][{path!r}]"
        options: dict[str, Any] = {}
        if isinstance(value, Mapping):
            options = dict(value)
            if "class" not in options:
                raise ImproperlyConfigured(
                    f"{SETTINGS_NAME}{setting} must name the service class under 'class'."
                )
            value = options.pop("class")
        service_class = import_from_string(value, setting)
        if not isinstance(service_class, type) or not issubclass(service_class, BaseService):
            raise ImproperlyConfigured(
                f"{SETTINGS_NAME}{setting} must be a Service or ModelService class, "
                f"not {service_class!r}."
            )
        return Route(normalize_path(path), service_class, options)


#: The registry of the project.
services = ServiceRegistry()


def register(path: str, service_class: type, **options: Any) -> Route:
    """Serve `service_class` at `path` with `options`: see `ServiceRegistry.register`."""
    return services.register(path, service_class, **options)


def unregister(path: str) -> None:
    """Stop serving the service registered in code at `path`."""
    services.unregister(path)


def get_service(path: str) -> Any:
    """
    An instance of the service registered at `path`, for calls made in Python; it may be
    kept and shared by any number of threads and coroutines (each call runs on a copy of its
    own).

    Its methods take the same arguments as over HTTP; build `Params` yourself
    (`provider` None marks an internal call). Each call goes through the call pipeline
    (`calls.py`): hooks and events run, authentication, permissions and throttles only for
    a call given a provider.
    """
    return services.get_route(path).instance()


def declared_routes() -> list[Route | Exception]:
    """
    Each route of the settings (SERVICES, then AUTHENTICATION) and of code, in that order;
    an entry of the settings that cannot be read is the exception saying why.
    """
    candidates: list[Route | Exception] = []
    for path, value in services_settings.SERVICES.items():
        try:
            candidates.append(services._route_from_setting(path, value))
        except (ImproperlyConfigured, TypeError) as exc:
            candidates.append(exc)
    try:
        authentication = services._authentication_route()
    except (ImproperlyConfigured, TypeError) as exc:
        candidates.append(exc)
    else:
        candidates.extend([authentication] if authentication is not None else [])
    candidates.extend(services._registered.values())
    return candidates


def _reset_services(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        services.reset()


setting_changed.connect(_reset_services)

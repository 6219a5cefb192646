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
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from django.core.checks import Error
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed

from ..conf import SETTINGS_NAME, did_you_mean, import_from_string, services_settings
from .routing import Route, Router, normalize_path
from .services.base_service import BaseService, is_option

__all__ = [
    "ServiceRegistry",
    "check_services",
    "get_service",
    "register",
    "services",
    "unregister",
]


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


def check_services(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """
    A system check: every declared service can be imported, its options exist and have values
    that work, and no two share a path. Every broken service is reported, each once.
    """
    errors: list[Error] = []
    routes: list[Route] = []
    try:
        declared = services_settings.SERVICES
    except ImproperlyConfigured:
        return []  # DJANGO_SERVICES is not a dict: django_services.E001 says so
    if not isinstance(declared, Mapping):
        return [
            Error(
                f"{SETTINGS_NAME}['SERVICES'] must be a dict of path -> service class, "
                f"not {type(declared).__name__}.",
                id="django_services.E010",
            )
        ]
    for candidate in declared_routes():
        if isinstance(candidate, Exception):
            errors.append(Error(str(candidate), id="django_services.E010"))
            continue
        problem = _route_problem(candidate)
        if problem is None:
            routes.append(candidate)
            continue
        message = str(problem)
        if not message.startswith(SETTINGS_NAME):
            message = f"The service at {candidate.path!r}: {message}"
        errors.append(Error(message, id="django_services.E010"))
    try:
        Router(routes)
    except ImproperlyConfigured as exc:
        errors.append(Error(str(exc), id="django_services.E010"))
    return errors


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


def _route_problem(route: Route) -> Exception | None:
    """Why the service of `route` cannot be served, or None."""
    for key in route.options:
        if not is_option(route.service_class, key):
            service_class = route.service_class
            options = [name for name in dir(service_class) if not name.startswith("_")]
            options += getattr(service_class, "_shorthand_options", ())
            hint = did_you_mean(key, options)
            return ImproperlyConfigured(
                f"{route.service_class.__name__} has no option {key!r}: options are "
                f"attributes of the service class.{hint}"
            )
    try:
        route.instance()._validate_options()
    except (ImproperlyConfigured, TypeError) as exc:
        return exc
    return None


def _reset_services(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        services.reset()


setting_changed.connect(_reset_services)

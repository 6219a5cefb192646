"""
System checks for `DJANGO_SERVICES`, with stable ids. Each run reports every problem found.

    django_services.E001  DJANGO_SERVICES is not a dict
    django_services.E002  unknown key in DJANGO_SERVICES (with the key meant, when close)
    django_services.E003  unknown key in AUTHENTICATION, its JWT or its LOCAL (the same)
    django_services.E010  a declared service cannot be imported or has invalid options
    django_services.E011  SOCKETIO_PUBLISHER cannot be imported or is not a Publisher
    django_services.W012  a service publishes its events, but SOCKETIO_PUBLISHER is None
    django_services.W013  a service's paginate default is larger than its max
    django_services.E014  a service's event_readers is none of "per_user", "shared", "unchecked"
    django_services.W015  a service's events go unchecked while its get_queryset is its own
    django_services.W016  SOCKETIO_RECOVERY's WINDOW is too short for POLL_INTERVAL + GAP_GRACE
    django_services.E017  SOCKETIO_OUTGOING_LIMIT is not a positive integer (of bytes)
    django_services.W018  a service class defines the request lifecycle the REST adapter runs
    django_services.W101+ / E101+  the authentication settings (see server.authentication.checks)
    django_services.W110  the local strategy's USERNAME_FIELD is not the user model's
    django_services.E201+ / W201+  the remotes (see client.checks)
    django_services.W301  a SQLite database lacks the options concurrent writes need
                          (`check --deploy` only; see database_checks)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from .client import checks as remote_checks  # noqa: F401 - registers
from .conf import DEFAULTS, SETTINGS_NAME, did_you_mean, import_from_string, services_settings
from .database_checks import check_sqlite_options  # noqa: F401 - registers
from .server.authentication import checks as authentication_checks  # noqa: F401 - registers
from .server.registry import Route, Router, declared_routes
from .server.services.base_service import is_option

__all__ = [
    "check_authentication_keys",
    "check_event_readers",
    "check_local_username_field",
    "check_outgoing_limit",
    "check_pagination",
    "check_publisher",
    "check_services",
    "check_settings",
]

_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@register()
def check_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Check that `DJANGO_SERVICES` is a dict and only uses known keys."""
    value = getattr(settings, SETTINGS_NAME, {})
    if not isinstance(value, dict):
        return [
            Error(
                f"{SETTINGS_NAME} must be a dict, not {type(value).__name__}.",
                id="django_services.E001",
            )
        ]
    return [
        Error(
            f"Unknown key {key!r} in {SETTINGS_NAME}.{did_you_mean(str(key), DEFAULTS)}",
            hint="Known keys: " + ", ".join(sorted(DEFAULTS)) + ".",
            id="django_services.E002",
        )
        for key in value
        if key not in DEFAULTS
    ]


@register()
def check_authentication_keys(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Every key of `AUTHENTICATION`, its `JWT` and its `LOCAL` is a known one."""
    authentication = _user_settings().get("AUTHENTICATION")
    if not isinstance(authentication, dict):
        return []  # absent, or django_services' authentication checks say what is wrong
    defaults = DEFAULTS["AUTHENTICATION"]
    sections = [(f"{SETTINGS_NAME}['AUTHENTICATION']", authentication, defaults)]
    for name in ("JWT", "LOCAL"):
        if isinstance(authentication.get(name), dict):
            sections.append(
                (
                    f"{SETTINGS_NAME}['AUTHENTICATION'][{name!r}]",
                    authentication[name],
                    defaults[name],
                )
            )
    return [
        Error(
            f"Unknown key {key!r} in {setting}.{did_you_mean(str(key), known)}",
            hint="Known keys: " + ", ".join(sorted(known)) + ".",
            id="django_services.E003",
        )
        for setting, value, known in sections
        for key in value
        if key not in known
    ]


def _user_settings() -> dict[str, Any]:
    value = getattr(settings, SETTINGS_NAME, {})
    return value if isinstance(value, dict) else {}


@register()
def check_publisher(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    `SOCKETIO_PUBLISHER` imports as a `Publisher`; and when it is None, no service decides
    where its events go in vain.
    """
    value = _user_settings().get("SOCKETIO_PUBLISHER")
    setting = f"{SETTINGS_NAME}['SOCKETIO_PUBLISHER']"
    if value is None:
        publishing = sorted(
            route.path
            for route in _routes()
            if callable(getattr(route.service_class, "publish", None))
        )
        if not publishing:
            return []
        return [
            Warning(
                f"{setting} is not set, so no socket.io connection receives any service event: "
                f"the `publish` of {', '.join(map(repr, publishing))} is never asked.",
                hint=f"Set {setting} to 'django_services.server.socketio.Publisher' (or a "
                "subclass): it puts connections in the channels `publish` names.",
                id="django_services.W012",
            )
        ]
    try:
        publisher = import_from_string(value, "['SOCKETIO_PUBLISHER']")
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="django_services.E011")]
    try:
        from .server.socketio.channels import Publisher
    except ImportError:  # python-socketio is not installed; the server says so when started
        return []
    publisher_class = publisher if isinstance(publisher, type) else type(publisher)
    if not issubclass(publisher_class, Publisher):
        return [
            Error(
                f"{setting} must be a Publisher subclass (or instance), not {value!r}.",
                hint="Use 'django_services.server.socketio.Publisher', or a subclass of it.",
                id="django_services.E011",
            )
        ]
    return []


@register()
def check_recovery_window(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    The event log keeps an event long enough for every process to read it: `WINDOW` at least
    twice `POLL_INTERVAL` and `GAP_GRACE` together.
    """
    from .conf import services_settings

    try:
        recovery = services_settings.SOCKETIO_RECOVERY
        window = float(recovery["WINDOW"])
        reading = float(recovery["POLL_INTERVAL"]) + float(recovery["GAP_GRACE"])
    except (ImproperlyConfigured, KeyError, TypeError, ValueError):
        # A DJANGO_SERVICES that is not a dict is E001's to report.
        return []
    if window >= 2 * reading:
        return []
    return [
        Warning(
            f"{SETTINGS_NAME}['SOCKETIO_RECOVERY']['WINDOW'] ({window:g} s) is shorter than "
            f"twice POLL_INTERVAL and GAP_GRACE together ({reading:g} s): an event whose "
            "Redis message is lost may be pruned before another process reads it from the log.",
            hint="Keep WINDOW at its default (120 s), or at least twice POLL_INTERVAL + GAP_GRACE, "
            "on every process.",
            id="django_services.W016",
        )
    ]


@register()
def check_outgoing_limit(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """`SOCKETIO_OUTGOING_LIMIT` is a positive number of bytes."""
    user = _user_settings()
    if "SOCKETIO_OUTGOING_LIMIT" not in user:
        return []
    value = user["SOCKETIO_OUTGOING_LIMIT"]
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return []
    return [
        Error(
            f"{SETTINGS_NAME}['SOCKETIO_OUTGOING_LIMIT'] must be a positive integer of bytes, "
            f"not {value!r}.",
            hint="Leave it out for 4 MiB (4 * 1024 * 1024), or give the bytes one socket.io "
            "connection may have waiting to be sent to it before it is closed.",
            id="django_services.E017",
        )
    ]


@register()
def check_pagination(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Warn about a `paginate` (or `PAGINATE`) whose default page is larger than its max."""
    found: list[CheckMessage] = []
    for route in _routes():
        if not hasattr(route.service_class, "get_query_declaration"):
            continue
        try:
            paginate = route.instance().get_query_declaration().get_paginate()
        except (ImproperlyConfigured, TypeError):
            continue  # django_services.E010 says why
        if paginate is None or paginate.default is None or paginate.max is None:
            continue
        if paginate.default > paginate.max:
            found.append(
                Warning(
                    f"The service at {route.path!r} pages {paginate.default} records by "
                    f"default but at most {paginate.max}: every page holds {paginate.max} "
                    "at most.",
                    hint="Make paginate['default'] at most paginate['max'] (or "
                    f"{SETTINGS_NAME}['PAGINATE'], when the service sets no paginate).",
                    id="django_services.W013",
                )
            )
    return found


@register(Tags.security)
def check_event_readers(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    Each service's `event_readers` is a known value; and a service whose own `get_queryset`
    may read the user does not send its events to its channels unchecked.
    """
    try:
        from .server.socketio.reads import EVENT_READERS
    except ImportError:  # the socket.io extra is not installed: no event is ever sent
        return []
    found: list[CheckMessage] = []
    for route in _routes():
        service_class = route.service_class
        readers = getattr(service_class, "event_readers", "per_user")
        name = f"The service at {route.path!r} ({service_class.__name__})"
        if readers not in EVENT_READERS:
            known = ", ".join(map(repr, EVENT_READERS))
            found.append(
                Error(
                    f"{name} has event_readers {readers!r}: one of {known}."
                    + did_you_mean(str(readers), EVENT_READERS),
                    hint="Without it, every event of the service fails to be published.",
                    id="django_services.E014",
                )
            )
        elif readers == "unchecked" and _own_get_queryset(service_class):
            found.append(
                Warning(
                    f"{name} sends its events to its channels unchecked (event_readers = "
                    "'unchecked'), while its get_queryset is its own and may read the user: "
                    "a socket in those channels gets the records its user may not `get`.",
                    hint="Remove event_readers (each event then reaches the users who may "
                    "`get` its record), or silence this warning if the service's `publish` "
                    "already sends each event to its readers alone.",
                    id="django_services.W015",
                )
            )
    return found


def _own_get_queryset(service_class: type) -> bool:
    """Whether `get_queryset` is not DRF's (which reads `queryset` alone)."""
    for klass in service_class.__mro__:
        if "get_queryset" in vars(klass):
            return not klass.__module__.startswith("rest_framework.")
    return False


def _routes() -> list[Route]:
    """The routes whose class imports (django_services.E010 names the others)."""
    try:
        return [route for route in declared_routes() if isinstance(route, Route)]
    except ImproperlyConfigured:
        return []  # DJANGO_SERVICES is not a dict: django_services.E001


@register(Tags.security)
def check_local_username_field(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    The local strategy sends `LOCAL["USERNAME_FIELD"]` to the backends as the username:
    with Django's ModelBackend alone, it must be the user model's own `USERNAME_FIELD`.
    """
    authentication = _user_settings().get("AUTHENTICATION")
    if not isinstance(authentication, dict) or not isinstance(authentication.get("LOCAL"), dict):
        return []
    field = authentication["LOCAL"].get("USERNAME_FIELD")
    if field is None or list(settings.AUTHENTICATION_BACKENDS) != [_MODEL_BACKEND]:
        return []
    from django.contrib.auth import get_user_model

    try:
        model_field = get_user_model().USERNAME_FIELD
    except (ImproperlyConfigured, LookupError):
        return []  # Django's own checks name AUTH_USER_MODEL
    if field == model_field:
        return []
    setting = f"{SETTINGS_NAME}['AUTHENTICATION']['LOCAL']['USERNAME_FIELD']"
    return [
        Warning(
            f"{setting} is {field!r}, but {settings.AUTH_USER_MODEL} logs in by "
            f"{model_field!r}: Django's ModelBackend looks the value of {field!r} up as the "
            f"user's {model_field!r}, so logins by {field!r} fail with 401.",
            hint=f"Remove it (the default is the user model's USERNAME_FIELD, {model_field!r}), "
            f"or add an authentication backend that finds users by {field!r}.",
            id="django_services.W110",
        )
    ]


@register()
def check_services(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    A system check: every declared service can be imported, its options exist and have values
    that work, and no two share a path. Every broken service is reported, each once.
    """
    errors: list[CheckMessage] = []
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
    for route in routes:
        if own := _lifecycle_of_its_own(route):
            errors.append(
                Warning(
                    f"The service at {route.path!r}: {route.service_class.__name__} defines "
                    f"{', '.join(own)}, which REST does not call: the REST adapter runs the "
                    "request itself.",
                    hint="Move what it does into a hook, or into get_permissions(), "
                    "get_authenticators() or get_throttles(), which every transport calls.",
                    id="django_services.W018",
                )
            )
    return errors


#: DRF's request lifecycle, which the REST adapter (`rest.views.ServiceView`) runs itself.
_LIFECYCLE = ("dispatch", "initialize_request", "initial", "allowed_methods")


def _lifecycle_of_its_own(route: Route) -> list[str]:
    """The lifecycle methods the project's classes of a service define."""
    ours = ("django_services.", "rest_framework.", "django.")
    classes = [
        klass for klass in route.service_class.__mro__ if not klass.__module__.startswith(ours)
    ]
    return sorted({name for klass in classes for name in _LIFECYCLE if name in vars(klass)})


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

"""
System checks for `DJANGO_SERVICES["AUTHENTICATION"]`, with stable ids.

    django_services.W101  no explicit SECRET: the token key is derived from SECRET_KEY
    django_services.W102  SECRET shorter than the algorithm's digest
    django_services.E101  JWT["ALGORITHM"] is not an HMAC algorithm
    django_services.E102  a name in AUTH_STRATEGIES has no class in STRATEGIES
    django_services.E103  a class in STRATEGIES cannot be imported or is not a BaseStrategy
    django_services.E104  THROTTLE_RATE is not "<number>/<s|m|h|d...>"
    django_services.E105  REVOCATION_CACHE names no alias of CACHES
    django_services.E106  JWT["EXPIRES_IN"] is not a positive number of seconds or a timedelta
    django_services.E107  REVOKE_ON_PASSWORD_CHANGE is not True or False
    django_services.E108  REFRESH has an invalid value (EXPIRES_IN, COOKIE or COOKIE_NAME)
    django_services.W111  a users service lets one user write another's account
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from django_services.conf import SETTINGS_NAME, import_from_string

from .config import HMAC_ALGORITHMS, authentication_settings, is_configured

__all__ = ["check_authentication_settings", "check_users_services"]

SETTING = f"{SETTINGS_NAME}['AUTHENTICATION']"
_RATE = re.compile(r"^\d+/[smhd][a-z]*$")  # what DRF's parse_rate understands
# The shortest key PyJWT accepts without InsecureKeyLengthWarning: the digest size.
_MIN_KEY_BYTES = {"HS256": 32, "HS384": 48, "HS512": 64}


@register(Tags.security)
def check_authentication_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Check the authentication settings, when the project configures authentication."""
    if not is_configured():
        return []
    auth = authentication_settings()
    return [
        *_check_secret(auth),
        *_check_algorithm(auth),
        *_check_strategies(auth),
        *_check_throttle_rate(auth),
        *_check_revocation_cache(auth),
        *_check_expires_in(auth),
        *_check_revoke_on_password_change(auth),
        *_check_refresh(auth),
    ]


def _check_secret(auth: Mapping[str, Any]) -> list[CheckMessage]:
    secret = auth["SECRET"]
    if secret is None:
        return [
            Warning(
                f"{SETTING}['SECRET'] is not set: tokens are signed with a key derived from "
                "SECRET_KEY.",
                hint="Set an explicit secret (from the environment), so that rotating "
                "SECRET_KEY does not log everyone out and other servers can verify tokens.",
                id="django_services.W101",
            )
        ]
    minimum = _MIN_KEY_BYTES.get(auth["JWT"]["ALGORITHM"], 32)
    length = len(secret.encode() if isinstance(secret, str) else secret)
    if length < minimum:
        return [
            Warning(
                f"{SETTING}['SECRET'] is {length} bytes long, shorter than the {minimum} bytes "
                f"{auth['JWT']['ALGORITHM']} needs.",
                hint=f"Use a random secret of at least {minimum} bytes.",
                id="django_services.W102",
            )
        ]
    return []


def _check_algorithm(auth: Mapping[str, Any]) -> list[CheckMessage]:
    algorithm = auth["JWT"]["ALGORITHM"]
    if algorithm in HMAC_ALGORITHMS:
        return []
    return [
        Error(
            f"{SETTING}['JWT']['ALGORITHM'] is {algorithm!r}.",
            hint="Allowed: " + ", ".join(HMAC_ALGORITHMS) + ".",
            id="django_services.E101",
        )
    ]


def _check_strategies(auth: Mapping[str, Any]) -> list[CheckMessage]:
    from .strategies import BaseStrategy

    messages: list[CheckMessage] = []
    strategies = auth["STRATEGIES"]
    for name in auth["AUTH_STRATEGIES"]:
        if name not in strategies:
            messages.append(
                Error(
                    f"{SETTING}['AUTH_STRATEGIES'] lists {name!r}, which is not in "
                    f"{SETTING}['STRATEGIES'].",
                    hint="Known strategies: " + ", ".join(sorted(strategies)) + ".",
                    id="django_services.E102",
                )
            )
    for name, path in strategies.items():
        setting = f"['AUTHENTICATION']['STRATEGIES'][{name!r}]"
        try:
            strategy_class = import_from_string(path, setting)
        except ImproperlyConfigured as exc:
            messages.append(Error(str(exc), id="django_services.E103"))
            continue
        if not (isinstance(strategy_class, type) and issubclass(strategy_class, BaseStrategy)):
            messages.append(
                Error(
                    f"{SETTINGS_NAME}{setting} is {path!r}, which is not a BaseStrategy subclass.",
                    hint="Subclass django_services.server.authentication.BaseStrategy.",
                    id="django_services.E103",
                )
            )
    return messages


def _check_throttle_rate(auth: Mapping[str, Any]) -> list[CheckMessage]:
    rate = auth["THROTTLE_RATE"]
    if rate is None or (isinstance(rate, str) and _RATE.match(rate)):
        return []
    return [
        Error(
            f"{SETTING}['THROTTLE_RATE'] is {rate!r}.",
            hint='Write "<requests>/<period>" with a period of s, m, h or d ("10/min"), or None.',
            id="django_services.E104",
        )
    ]


def _check_revocation_cache(auth: Mapping[str, Any]) -> list[CheckMessage]:
    alias = auth["REVOCATION_CACHE"]
    if alias is None or alias in settings.CACHES:
        return []
    return [
        Error(
            f"{SETTING}['REVOCATION_CACHE'] is {alias!r}, which is not an alias of CACHES.",
            hint="Known aliases: " + ", ".join(sorted(settings.CACHES)) + ".",
            id="django_services.E105",
        )
    ]


def _check_expires_in(auth: Mapping[str, Any]) -> list[CheckMessage]:
    value = auth["JWT"]["EXPIRES_IN"]
    if isinstance(value, timedelta):
        value = value.total_seconds()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return []
    return [
        Error(
            f"{SETTING}['JWT']['EXPIRES_IN'] is {auth['JWT']['EXPIRES_IN']!r}.",
            hint="Give a positive number of seconds (86400 for a day) or a datetime.timedelta.",
            id="django_services.E106",
        )
    ]


def _check_revoke_on_password_change(auth: Mapping[str, Any]) -> list[CheckMessage]:
    value = auth["REVOKE_ON_PASSWORD_CHANGE"]
    if isinstance(value, bool):
        return []
    return [
        Error(
            f"{SETTING}['REVOKE_ON_PASSWORD_CHANGE'] is {value!r}.",
            hint="True (the default) ends every token when its user's password changes; "
            "False keeps tokens until they expire.",
            id="django_services.E107",
        )
    ]


def _check_refresh(auth: Mapping[str, Any]) -> list[CheckMessage]:
    options = auth["REFRESH"]
    if not isinstance(options, Mapping):
        return [_refresh_error(f"{SETTING}['REFRESH'] is {options!r}.", "Give a dict.")]
    messages: list[CheckMessage] = []
    lifetime = options["EXPIRES_IN"]
    seconds = lifetime.total_seconds() if isinstance(lifetime, timedelta) else lifetime
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0:
        messages.append(
            _refresh_error(
                f"{SETTING}['REFRESH']['EXPIRES_IN'] is {lifetime!r}.",
                "Give a positive number of seconds (1209600 for 14 days) or a timedelta.",
            )
        )
    if not isinstance(options["COOKIE"], bool):
        messages.append(
            _refresh_error(
                f"{SETTING}['REFRESH']['COOKIE'] is {options['COOKIE']!r}.",
                "True sends refresh tokens in an HttpOnly cookie, False in the body.",
            )
        )
    name = options["COOKIE_NAME"]
    if not isinstance(name, str) or not re.fullmatch(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+", name):
        messages.append(
            _refresh_error(
                f"{SETTING}['REFRESH']['COOKIE_NAME'] is {name!r}.",
                "Give a cookie name: letters, digits and -_. (e.g. 'feathers-refresh').",
            )
        )
    return messages


def _refresh_error(message: str, hint: str) -> Error:
    return Error(message, hint=hint, id="django_services.E108")


_WRITES = frozenset({"update", "patch", "remove"})


@register(Tags.security)
def check_users_services(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    Warn about a users service (a `UserService`, or a `ModelService` over `AUTH_USER_MODEL`)
    whose permissions let any user write any account, as far as the classes tell: no
    permission class checks records, none is staff-only, and its queryset is not narrowed.
    """
    from ..registry import Route, declared_routes

    try:
        routes = [route for route in declared_routes() if isinstance(route, Route)]
    except ImproperlyConfigured:
        return []  # django_services.E001 says why
    messages: list[CheckMessage] = []
    for route in routes:
        try:
            service = route.instance()
        except Exception:  # django_services.E010 names a service that cannot be made
            continue
        if _writes_any_account(service):
            messages.append(
                Warning(
                    f"The users service at {route.path!r} lets any caller its permissions "
                    "admit change or remove any account: its permission classes check no "
                    "record and its queryset is every user.",
                    hint="Keep UserService's default permission_classes ([AccountPermission]) "
                    "and queryset narrowing, or add a permission with has_object_permission "
                    "that admits only the account's owner (and staff).",
                    id="django_services.W111",
                )
            )
    return messages


def _writes_any_account(service: Any) -> bool:
    from django.contrib.auth import get_user_model

    from ..services.model_services import ModelService
    from .users import UserService

    if not isinstance(service, ModelService):
        return False
    try:
        user_model = get_user_model()
        methods = service.get_methods()
    except (ImproperlyConfigured, LookupError, TypeError):
        return False
    if not _WRITES & set(methods):
        return False
    if isinstance(service, UserService):
        # Its own narrowing holds unless replaced; a get_queryset of the project's is taken
        # to build on it (super()), which cannot be told from the class.
        if type(service).restrict_to_owner is UserService.restrict_to_owner:
            return False
    else:
        queryset = service.queryset
        if getattr(queryset, "model", None) is not user_model:
            return False
        if type(service).get_queryset is not ModelService.get_queryset:
            return False  # the project narrows it, or says so
    return not any(_guards_records(permission) for permission in _permission_classes(service))


def _permission_classes(service: Any) -> list[Any]:
    classes = service.permission_classes
    if classes is None:
        from rest_framework.settings import api_settings

        classes = api_settings.DEFAULT_PERMISSION_CLASSES
    return list(classes)


def _guards_records(permission: Any) -> bool:
    """Whether a permission class checks records, or admits staff only (or cannot be told)."""
    from rest_framework.permissions import BasePermission, DjangoModelPermissions, IsAdminUser

    if not (isinstance(permission, type) and issubclass(permission, BasePermission)):
        return True  # composed with & | ~, or unknown: not something a check can read
    # Writes for staff, or for users granted Django's model permissions, only.
    if issubclass(permission, (IsAdminUser, DjangoModelPermissions)):
        return True
    return permission.has_object_permission is not BasePermission.has_object_permission

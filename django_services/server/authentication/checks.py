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

__all__ = ["check_authentication_settings"]

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

"""
System checks for `DJANGO_SERVICES["REMOTES"]`, with stable ids.

    django_services.E201  REMOTES, or a remote, is not a dict (or an alias is not a string)
    django_services.E202  unknown key in a remote, its AUTH, OPTIONS, TIMEOUT, RETRIES or SERVICES
    django_services.E203  BASE_URL missing or not an http(s) URL without query and fragment
    django_services.E204  CONNECTION unknown, not importable, or its library not installed
    django_services.E205  OPTIONS, TIMEOUT or RETRIES has an invalid value
    django_services.E206  AUTH invalid: no STRATEGY, a CLASS that can not be imported, bad values
    django_services.E207  missing credentials (a login without CREDENTIALS, a token strategy
                          without TOKEN or TOKEN_ENV)
    django_services.W208  an environment variable named in AUTH is not set
    django_services.E209  AUTH CACHE names no alias of CACHES
    django_services.W210  AUTH CACHE is not shared between processes (local memory, dummy)
    django_services.E211  SERVICES invalid: methods, or a class that can not be imported
    django_services.W212  a remote forwards credentials, RemotesMiddleware is not installed
    django_services.E213  forward-session with CSRF_USE_SESSIONS, SessionMiddleware missing
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning, register

from ..conf import REMOTE_DEFAULTS, SETTINGS_NAME
from .remote_settings import SETTING, read_remote, remote_problems

__all__ = ["check_remotes"]

REMOTES_MIDDLEWARE = "django_services.middleware.RemotesMiddleware"


@register()
def check_remotes(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Check every remote of `DJANGO_SERVICES["REMOTES"]`."""
    user_settings = getattr(settings, SETTINGS_NAME, {})
    if not isinstance(user_settings, Mapping):
        return []  # django_services.E001 says so
    value = user_settings.get("REMOTES", {})
    if not isinstance(value, Mapping):
        return [
            Error(
                f"{SETTING} must be a dict, not {type(value).__name__}.",
                hint="Alias -> options, e.g. {'billing': {'BASE_URL': 'https://...'}}. "
                "Options: " + ", ".join(REMOTE_DEFAULTS) + ".",
                id="django_services.E201",
            )
        ]
    messages: list[CheckMessage] = []
    forwarding = []
    for alias, options in value.items():
        problems = remote_problems(alias, options)
        messages.extend(problems)
        serious = any(problem.is_serious() for problem in problems)
        if not serious and read_remote(alias, options).bridge.forwards:
            forwarding.append(alias)
    if forwarding and REMOTES_MIDDLEWARE not in settings.MIDDLEWARE:
        messages.append(
            Warning(
                f"The remotes {', '.join(map(repr, forwarding))} forward the caller's "
                f"credentials, but {REMOTES_MIDDLEWARE} is not in MIDDLEWARE: "
                "request.remotes is not set.",
                hint="Add the middleware, or bind remotes yourself: "
                "remotes[alias].for_request(request).",
                id="django_services.W212",
            )
        )
    return messages

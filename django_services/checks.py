"""
System checks for `DJANGO_SERVICES`, with stable ids.

    django_services.E001  DJANGO_SERVICES is not a dict
    django_services.E002  unknown key in DJANGO_SERVICES
    django_services.E010  a declared service cannot be imported or has invalid options
    django_services.W101+ / E101+  the authentication settings (see server.authentication.checks)
    django_services.E201+ / W201+  the remotes (see client.checks)
    django_services.W301  a SQLite database lacks the options concurrent writes need
                          (see database_checks)
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register

from .client import checks as remote_checks  # noqa: F401 - registers
from .conf import DEFAULTS, SETTINGS_NAME
from .database_checks import check_sqlite_options  # noqa: F401 - registers
from .server.authentication import checks as authentication_checks  # noqa: F401 - registers
from .server.registry import check_services

__all__ = ["check_services", "check_settings"]

register(check_services)


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
            f"Unknown key {key!r} in {SETTINGS_NAME}.",
            hint="Known keys: " + ", ".join(sorted(DEFAULTS)) + ".",
            id="django_services.E002",
        )
        for key in value
        if key not in DEFAULTS
    ]

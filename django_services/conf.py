"""
Settings for django-services, all under one `DJANGO_SERVICES` dict.

    DJANGO_SERVICES = {
        "SERVICES": {"todos": "todos.services.TodoService"},
        "PAGINATE": {"default": 10, "max": 50},
        "AUTHENTICATION": {"ENTITY": "user", "SERVICE": "users"},
    }

Use `services_settings.PAGINATE` and so on. Values are read lazily, so nothing is read at import
time, and the object reloads itself when `DJANGO_SERVICES` changes (`override_settings`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

__all__ = ["DEFAULTS", "ServicesSettings", "import_from_string", "services_settings"]

SETTINGS_NAME = "DJANGO_SERVICES"

DEFAULTS: dict[str, Any] = {
    # Service path -> dotted path of a Service or ModelService class.
    "SERVICES": {},
    # Default pagination for model services: None, or {"default": D, "max": M}.
    "PAGINATE": None,
    # Default for multi create/patch/remove: False, True, or a list of method names.
    "MULTI": False,
    # Extra query operators enabled for every service (e.g. ["$like", "$ilike"]).
    "OPERATORS": [],
    # Query-string limits; a request beyond one of them is a 400 BadRequest naming it.
    "QUERY_DEPTH_LIMIT": 5,
    "QUERY_PARAMETER_LIMIT": 1000,
    "QUERY_LIST_LIMIT": 1000,
    # JSON bodies nested deeper than this are a 400 BadRequest.
    "BODY_DEPTH_LIMIT": 32,
    # The /authentication service; see the authentication guide for every key.
    "AUTHENTICATION": {
        # The JWT secret; None uses Django's SECRET_KEY (system check warning).
        "SECRET": None,
        "SERVICE_PATH": "authentication",
        # The key of the entity in the authentication result, and the service that holds it.
        "ENTITY": "user",
        "ENTITY_SERVICE": "users",
        "ENTITY_ID": None,
        # Strategy name -> dotted path of its class.
        "STRATEGIES": {
            "local": "django_services.server.authentication.strategies.LocalStrategy",
            "jwt": "django_services.server.authentication.strategies.JWTStrategy",
            "session": "django_services.server.authentication.strategies.SessionStrategy",
        },
        # Strategies that may be used to create a token (Feathers' authStrategies).
        "AUTH_STRATEGIES": ["local", "jwt"],
        "JWT": {
            "ALGORITHM": "HS256",
            "EXPIRES_IN": 86400,
            "AUDIENCE": "https://yourdomain.com",
            "ISSUER": "feathers",
            "HEADER": "Authorization",
            "SCHEMES": ["Bearer", "JWT"],
        },
        "LOCAL": {
            "USERNAME_FIELD": "email",
            "PASSWORD_FIELD": "password",
            "ERROR_MESSAGE": "Invalid login",
        },
        # Refuse tokens after logout, through a denylist in this cache alias (None: off).
        "REVOCATION_CACHE": None,
    },
    # Remote services called through the client: alias -> options.
    "REMOTES": {},
}

#: Settings whose values are dotted paths, imported on first access.
IMPORT_STRINGS: tuple[str, ...] = ()


def import_from_string(value: Any, setting_name: str) -> Any:
    """
    Import a dotted path found in the settings, naming the setting when it fails.

    Non-string values (classes, callables) are returned as they are.
    """
    if not isinstance(value, str):
        return value
    try:
        return import_string(value)
    except ImportError as exc:
        raise ImproperlyConfigured(
            f"Could not import {value!r} for {SETTINGS_NAME}{setting_name}: "
            f"{type(exc).__name__}: {exc}."
        ) from exc


def _merge(defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Merge `overrides` into a copy of `defaults`, recursing into nested dicts of defaults."""
    merged = copy.deepcopy(dict(defaults))
    for key, value in overrides.items():
        default = defaults.get(key)
        if isinstance(default, Mapping) and default and isinstance(value, Mapping):
            merged[key] = _merge(default, value)
        else:
            merged[key] = value
    return merged


class ServicesSettings:
    """
    Lazy access to `DJANGO_SERVICES` with defaults.

    Nested settings dicts (such as `AUTHENTICATION`) are merged key by key with their
    defaults, so a project only writes the keys it changes.
    """

    def __init__(
        self,
        user_settings: Mapping[str, Any] | None = None,
        defaults: Mapping[str, Any] | None = None,
        import_strings: tuple[str, ...] = IMPORT_STRINGS,
    ) -> None:
        self._explicit_user_settings = user_settings
        self.defaults = DEFAULTS if defaults is None else defaults
        self.import_strings = import_strings
        self._cached: set[str] = set()

    @property
    def user_settings(self) -> Mapping[str, Any]:
        """The project's `DJANGO_SERVICES` dict (empty when not set)."""
        if self._explicit_user_settings is not None:
            return self._explicit_user_settings
        value = getattr(settings, SETTINGS_NAME, {})
        if not isinstance(value, Mapping):
            raise ImproperlyConfigured(
                f"{SETTINGS_NAME} must be a dict, not {type(value).__name__}."
            )
        return value

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_") or attr not in self.defaults:
            raise AttributeError(f"Invalid {SETTINGS_NAME} setting: {attr!r}")
        default = self.defaults[attr]
        if attr in self.user_settings:
            value = self.user_settings[attr]
            if isinstance(default, Mapping) and default and isinstance(value, Mapping):
                value = _merge(default, value)
        else:
            value = copy.deepcopy(default)
        if attr in self.import_strings:
            value = import_from_string(value, f"[{attr!r}]")
        setattr(self, attr, value)
        self._cached.add(attr)
        return value

    def reload(self) -> None:
        """Forget cached values, so the next access reads the settings again."""
        for attr in self._cached:
            self.__dict__.pop(attr, None)
        self._cached.clear()


services_settings = ServicesSettings()


def _reload_services_settings(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        services_settings.reload()


setting_changed.connect(_reload_services_settings)

"""
Read access to `DJANGO_SERVICES["AUTHENTICATION"]`, with its keys resolved.

    auth = authentication_settings()
    auth["JWT"]["ALGORITHM"]          # "HS256"
    signing_key(), verifying_keys()   # the secret, and every secret a token may be signed with

Everything is read when called, never at import time, so `override_settings` applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.crypto import salted_hmac

from django_services.conf import DEFAULTS, SETTINGS_NAME, services_settings

__all__ = [
    "HMAC_ALGORITHMS",
    "authentication_settings",
    "is_configured",
    "signing_key",
    "verifying_keys",
]

#: The algorithms a token may be signed with: HMAC only, so one shared secret signs and verifies.
HMAC_ALGORITHMS: tuple[str, ...] = ("HS256", "HS384", "HS512")

# A purpose of its own, so the derived key is not Django's SECRET_KEY itself, nor any other
# value Django derives from it (sessions, password reset tokens, signed cookies).
_KEY_SALT = "django_services.server.authentication.jwt"


def is_configured() -> bool:
    """Return True when the project sets `DJANGO_SERVICES["AUTHENTICATION"]` (the service is on)."""
    user_settings = getattr(settings, SETTINGS_NAME, None)
    return isinstance(user_settings, Mapping) and isinstance(
        user_settings.get("AUTHENTICATION"), Mapping
    )


def authentication_settings() -> Mapping[str, Any]:
    """Return the authentication settings, merged key by key with their defaults."""
    value = services_settings.AUTHENTICATION
    if isinstance(value, Mapping):
        return value
    # A project that writes `"AUTHENTICATION": None` turns the service off; tokens issued by
    # other means are still checked with the defaults.
    return DEFAULTS["AUTHENTICATION"]


def _derive(secret: str | bytes) -> str:
    return salted_hmac(_KEY_SALT, "signing key", secret=secret, algorithm="sha512").hexdigest()


def signing_key() -> str | bytes:
    """Return the secret that signs new tokens."""
    secret = authentication_settings()["SECRET"]
    if secret is None:
        return _derive(settings.SECRET_KEY)
    return secret


def verifying_keys() -> list[str | bytes]:
    """Return the secrets a token may be signed with: the current one first, then fallbacks."""
    auth = authentication_settings()
    if auth["SECRET"] is None:
        fallbacks = [_derive(key) for key in getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    else:
        fallbacks = list(auth["SECRET_FALLBACKS"])
    return [signing_key(), *fallbacks]

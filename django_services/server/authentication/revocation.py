"""
Revocation on logout: a denylist of token ids (`jti`) in a Django cache. Off by default.

    DJANGO_SERVICES = {"AUTHENTICATION": {"REVOCATION_CACHE": "default"}}

    revoke(payload)       # on logout; refused until the token would have expired anyway
    is_revoked(payload)   # checked by every token verification

Every process that shares the cache (Redis, Memcached, the database cache) refuses a revoked
token at once. A per-process cache (`LocMemCache`) only protects the process that saw the logout.
The socket.io connections logged in with a revoked token are logged out at once, in every
socket.io server process (see `signals.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.cache import BaseCache, caches

from ... import clock
from .config import authentication_settings
from .signals import end_logins

__all__ = ["is_revoked", "revocation_cache", "revocation_enabled", "revoke"]

KEY_PREFIX = "django_services.authentication.revoked:"


def revocation_cache() -> BaseCache | None:
    """Return the cache holding the denylist, or None when revocation is off."""
    alias = authentication_settings()["REVOCATION_CACHE"]
    return None if alias is None else caches[alias]


def revocation_enabled() -> bool:
    """Return True when logged-out tokens are refused."""
    return authentication_settings()["REVOCATION_CACHE"] is not None


def revoke(payload: Mapping[str, Any]) -> None:
    """Refuse the token with these claims from now until it expires."""
    cache = revocation_cache()
    if cache is None:
        return
    leeway = int(authentication_settings()["JWT"]["LEEWAY"])
    remaining = int(payload["exp"]) + leeway - int(clock.time())
    cache.set(KEY_PREFIX + str(payload["jti"]), 1, timeout=max(remaining, 1))
    # Sockets logged in with the token are logged out now, not at their next call.
    end_logins(jti=payload["jti"])


def is_revoked(payload: Mapping[str, Any]) -> bool:
    """Return True when the token with these claims was revoked."""
    cache = revocation_cache()
    if cache is None:
        return False
    return cache.get(KEY_PREFIX + str(payload["jti"])) is not None

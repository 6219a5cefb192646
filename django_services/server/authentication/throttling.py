"""
Throttling of `{base}/authentication`, on DRF's throttles.

    DJANGO_SERVICES = {"AUTHENTICATION": {"THROTTLE_RATE": "10/min"}}

Beyond the rate, the answer is 429 TooManyRequests with `Retry-After`. The default class counts
requests per client address, as DRF's `AnonRateThrottle` does (set DRF's `NUM_PROXIES` behind a
proxy); `AUTHENTICATION["THROTTLE_CLASSES"]` takes any DRF throttle classes instead.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle

from .config import authentication_settings

__all__ = ["AuthenticationRateThrottle"]


class AuthenticationRateThrottle(SimpleRateThrottle):
    """Limit authentication requests per client address to `AUTHENTICATION["THROTTLE_RATE"]`."""

    scope = "authentication"

    def get_rate(self) -> str | None:
        """Return the configured rate ("10/min"), or None when not throttled."""
        return authentication_settings()["THROTTLE_RATE"]

    def get_cache_key(self, request: Any, view: Any) -> str:
        """Return the cache key counting this client's requests."""
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

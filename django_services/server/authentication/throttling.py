"""
Throttling of `{base}/authentication`, on DRF's throttles.

    DJANGO_SERVICES = {"AUTHENTICATION": {"THROTTLE_RATE": "10/min"}}

Only logins with a `throttled` strategy are counted (`local`, and a project's own strategies
unless they set `throttled = False`): the service runs its throttles on nothing else, so logouts
and `jwt` re-authentication are never counted nor refused (`AuthenticationService.should_throttle`).
Beyond the rate, the answer is 429 TooManyRequests with `Retry-After`. The default class counts
per client address: `REMOTE_ADDR`, unless the project declares its proxies with DRF's
`NUM_PROXIES`, and then the address they appended to `X-Forwarded-For`. A client never chooses
its own count by sending that header. `AUTHENTICATION["THROTTLE_CLASSES"]` takes any DRF throttle
classes instead, applied to the same requests.
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from ... import clock
from .config import authentication_settings

__all__ = ["AuthenticationRateThrottle"]


class AuthenticationRateThrottle(SimpleRateThrottle):
    """Limit the logins of each client address to `AUTHENTICATION["THROTTLE_RATE"]`."""

    scope = "authentication"

    def timer(self) -> float:
        """The time the rate is counted in: the server's clock."""
        return clock.time()

    def get_rate(self) -> str | None:
        """Return the configured rate ("10/min"), or None when not throttled."""
        return authentication_settings()["THROTTLE_RATE"]

    def get_ident(self, request: Any) -> str:
        """
        Return the client address: `REMOTE_ADDR`, or DRF's reading of `X-Forwarded-For` once
        `NUM_PROXIES` says how many trusted proxies append to it.
        """
        # Without NUM_PROXIES, DRF would key on the whole header, which any client can invent.
        if api_settings.NUM_PROXIES is None:
            return str(request.META.get("REMOTE_ADDR", ""))
        return super().get_ident(request)

    def get_cache_key(self, request: Any, view: Any) -> str:
        """Return the cache key counting this client's requests."""
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

"""
DRF authentication classes for services: access tokens, and Django sessions.

    DJANGO_SERVICES = {"DEFAULT_AUTHENTICATION_CLASSES": [
        "django_services.server.authentication.JWTAuthentication",
        "django_services.server.authentication.SessionAuthentication",
    ]}

Both fill `request.user`, and `request.auth` with what services see as `params.authentication`:
`{"strategy": "jwt", "accessToken": T, "payload": {...}}` or `{"strategy": "session"}`.
Missing or invalid credentials are 401 NotAuthenticated with a `WWW-Authenticate` challenge.
"""

from __future__ import annotations

from typing import Any

from django.http.request import HttpHeaders
from rest_framework import authentication

from ..._drf_compat import django_request
from .config import authentication_settings
from .exceptions import NotAuthenticated
from .strategies import get_strategy

__all__ = ["JWTAuthentication", "SessionAuthentication", "get_access_token"]


def get_access_token(request: Any) -> str | None:
    """
    Return the access token of the request's `JWT["HEADER"]`, as Feathers parses it.

    `Bearer <t>` and `JWT <t>` (the `JWT["SCHEMES"]`, in any case) give `<t>`; a value without
    a space is a bare token; another scheme gives None, so other classes may use the header.
    A call on a socket connection has no header: its request carries the connection's token
    as it is (`access_token`).
    """
    # Set on the request's own dict (`CallRequest`): read without a failed attribute lookup.
    http = django_request(request)
    token = vars(http).get("access_token")
    if token is not None:
        return token
    options = authentication_settings()["JWT"]
    value = http.META.get(HttpHeaders.to_wsgi_name(options["HEADER"]), "")
    parts = value.split()
    if not parts:
        return None
    schemes = {scheme.lower() for scheme in options["SCHEMES"]}
    if len(parts) == 1:
        if parts[0].lower() in schemes:
            raise NotAuthenticated("No access token")
        return parts[0]
    if parts[0].lower() not in schemes:
        return None
    if len(parts) > 2:
        raise NotAuthenticated("Invalid authorization header: the token contains spaces")
    return parts[1]


class JWTAuthentication(authentication.BaseAuthentication):
    """
    Authenticate with an access token of the authentication service.

    The token is checked by the strategy registered as `strategy_name` (`"jwt"`), so a
    project's own jwt strategy applies to every service request too.
    """

    strategy_name = "jwt"
    www_authenticate_realm = "api"

    def authenticate(self, request: Any) -> tuple[Any, dict[str, Any]] | None:
        """Return `(user, authentication)` for a valid token, None without one, else a 401."""
        token = get_access_token(request)
        if token is None:
            return None
        result = get_strategy(self.strategy_name).authenticate({"accessToken": token}, request)
        return result.user, result.authentication

    def authenticate_header(self, request: Any) -> str:
        """Return the `WWW-Authenticate` challenge of 401 responses."""
        return f'Bearer realm="{self.www_authenticate_realm}"'


class SessionAuthentication(authentication.SessionAuthentication):
    """
    Authenticate with Django's session (Django's `AuthenticationMiddleware` sets the user).

    Unsafe methods must pass Django's CSRF check, or the answer is 403 Forbidden. Unlike DRF's
    class, it offers a `WWW-Authenticate` challenge, so missing credentials stay a 401.
    """

    www_authenticate_realm = "api"

    def authenticate(self, request: Any) -> tuple[Any, dict[str, Any]] | None:
        """Return `(user, {"strategy": "session"})` for a logged-in session, else None."""
        result = super().authenticate(request)
        if result is None:
            return None
        return result[0], {"strategy": "session"}

    def authenticate_header(self, request: Any) -> str:
        """Return the `WWW-Authenticate` challenge of 401 responses."""
        return f'Session realm="{self.www_authenticate_realm}"'

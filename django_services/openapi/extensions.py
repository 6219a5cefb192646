"""
How drf-spectacular describes the authentication classes of services.

    jwtAuth     - `Authorization: Bearer <accessToken>` (`JWTAuthentication`)
    cookieAuth  - Django's session cookie (`SessionAuthentication`, which also checks CSRF)

Imported by `generators`, which registers them with drf-spectacular.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension

__all__ = ["JWTScheme", "SessionScheme"]


class JWTScheme(OpenApiAuthenticationExtension):
    """The access tokens of the `authentication` service, sent as bearer tokens."""

    target_class = "django_services.server.authentication.JWTAuthentication"
    match_subclasses = True
    name = "jwtAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
            "description": "The `accessToken` that `POST /authentication` answers.",
        }


class SessionScheme(OpenApiAuthenticationExtension):
    """The Django session of a logged-in browser; unsafe methods also need the CSRF token."""

    target_class = "django_services.server.authentication.SessionAuthentication"
    match_subclasses = True
    name = "cookieAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "Django's session cookie; POST, PUT, PATCH and DELETE also send "
            "`X-CSRFToken`.",
        }

"""
The authentication failure raised everywhere in this package.

    raise NotAuthenticated("jwt expired", {"name": "TokenExpiredError", "expiredAt": "..."})

It is Feathers' `NotAuthenticated` (401, its `data` sent as is) and DRF's `AuthenticationFailed`
at once, so DRF's view machinery treats it as an authentication failure: it asks the view's
first authentication class for the `WWW-Authenticate` challenge and resets `request.user`.
"""

from __future__ import annotations

from rest_framework import exceptions as drf_exceptions

from django_services import errors

__all__ = ["JSON_WEB_TOKEN_ERROR", "TOKEN_EXPIRED_ERROR", "NotAuthenticated", "token_error"]

#: The `data.name` of token failures, as Feathers (jsonwebtoken) sends them.
JSON_WEB_TOKEN_ERROR = "JsonWebTokenError"
TOKEN_EXPIRED_ERROR = "TokenExpiredError"


class NotAuthenticated(errors.NotAuthenticated, drf_exceptions.AuthenticationFailed):
    """A 401 NotAuthenticated that DRF also recognises as an authentication failure."""


def token_error(message: str, name: str = JSON_WEB_TOKEN_ERROR, **data: object) -> NotAuthenticated:
    """Return the 401 for a token that cannot be used, `data.name` telling why as Feathers does."""
    return NotAuthenticated(message, {"name": name, **data})

"""
Cookie mode of refresh tokens: the token travels in an `HttpOnly` cookie, never in a body.

    DJANGO_SERVICES = {"AUTHENTICATION": {"REFRESH": {"COOKIE": True}, ...}}

The cookie is `HttpOnly` (page scripts never read it), `Secure` unless `DEBUG` is on,
`SameSite=Strict` (no other site's page can make the browser send it) and scoped to the path
of the authentication service, so no other request carries it. The service decides the
cookie while answering (`set_refresh_cookie`, `clear_refresh_cookie`) and writes it on the
response as it leaves (`apply_refresh_cookie`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from .refresh import refresh_options
from .tokens import expires_in_seconds

__all__ = ["apply_refresh_cookie", "clear_refresh_cookie", "set_refresh_cookie"]

# The attribute of Django's request holding the cookie to write: a token, or "" to delete it.
_ATTRIBUTE = "_django_services_refresh_cookie"


def _http_request(request: Any) -> Any:
    return getattr(request, "_request", request)


def set_refresh_cookie(request: Any, token: str) -> None:
    """Have the answer to `request` set the refresh cookie to `token`."""
    setattr(_http_request(request), _ATTRIBUTE, token)


def clear_refresh_cookie(request: Any) -> None:
    """Have the answer to `request` delete the refresh cookie (a logout), in cookie mode."""
    if refresh_options()["COOKIE"]:
        setattr(_http_request(request), _ATTRIBUTE, "")


def apply_refresh_cookie(request: Any, response: Any) -> None:
    """Write the cookie the service decided on `response`, scoped to the request's path."""
    value = getattr(_http_request(request), _ATTRIBUTE, None)
    if value is None:
        return
    options = refresh_options()
    path = _http_request(request).path
    if value == "":
        response.delete_cookie(options["COOKIE_NAME"], path=path, samesite="Strict")
        return
    response.set_cookie(
        options["COOKIE_NAME"],
        value,
        max_age=expires_in_seconds(options["EXPIRES_IN"]),
        path=path,
        secure=not settings.DEBUG,
        httponly=True,
        samesite="Strict",
    )

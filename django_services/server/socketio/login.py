"""
Logging a socket in and out, as Feathers' authentication does it over socket.io.

    after_call(connection, service, "create", body, request)   # a login: remember it

A `create` on the authentication service (any strategy) logs the connection in with the token
it answers; a `remove` logs it out (the handshake's login is in `handshake.py`). The login is
kept as the jwt strategy and the token, so each later call re-checks the token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http.request import HttpHeaders

from ..authentication.config import authentication_settings, is_configured
from ..authentication.strategies import get_strategy
from .connection import Connection

__all__ = ["after_call", "authentication_path", "token_header", "token_scheme"]


def token_header() -> str:
    """The environ key of the header access tokens travel in (`HTTP_AUTHORIZATION`)."""
    return HttpHeaders.to_wsgi_name(authentication_settings()["JWT"]["HEADER"])


def token_scheme() -> str:
    """The scheme a call's token is sent with (the first of `JWT["SCHEMES"]`)."""
    schemes = authentication_settings()["JWT"]["SCHEMES"]
    return schemes[0] if schemes else "Bearer"


def authentication_path() -> str | None:
    """The path of the authentication service, or None when the project has none."""
    if not is_configured():
        return None
    return str(authentication_settings()["SERVICE_PATH"]).strip("/")


def after_call(
    connection: Connection, service: Any, method: str, result: Any, request: Any
) -> None:
    """Log `connection` in after a `create`, out after a `remove`, on the authentication service."""
    from ..authentication.service import AuthenticationService

    if not isinstance(service, AuthenticationService):
        return
    if method == "remove":
        connection.logout()
    elif method == "create" and isinstance(result, Mapping):
        token = result.get("accessToken")
        if isinstance(token, str):
            checked = get_strategy("jwt").authenticate({"accessToken": token}, request)
            connection.login(checked.user, dict(checked.authentication))

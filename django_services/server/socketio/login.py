"""
Logging a socket in and out, as Feathers' authentication does it over socket.io.

    after_call(connection, service, "create", body, request)   # a login: remember it
    handshake_login(connection)                                 # the handshake's credentials

A `create` on the authentication service (any strategy) logs the connection in with the token
it answers; a `remove` logs it out. The handshake logs in with its `Authorization` header (a
jwt `create`, refused connection when it fails) or, failing that, with a Django session cookie.
The login is kept as the jwt strategy and the token, so each later call re-checks the token.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.wsgi import WSGIRequest
from django.http.request import HttpHeaders

from ..authentication.authenticators import get_access_token
from ..authentication.config import authentication_settings, is_configured
from ..authentication.strategies import get_strategy
from .connection import Connection

__all__ = ["after_call", "authentication_path", "handshake_login", "token_header", "token_scheme"]


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


def handshake_login(connection: Connection) -> None:
    """
    Log `connection` in with its handshake's credentials, if any.

    A token in the `Authorization` header is a jwt `create` on the authentication service;
    its error is raised as the `Failed` of `dispatch`, and the connection is refused. Without
    one, a logged-in Django session cookie logs the connection in.
    """
    from .dispatch import Call, call_service

    request = WSGIRequest(_handshake_environ(connection))
    path = authentication_path()
    token = get_access_token(request) if path is not None else None
    if token is not None and path is not None:
        data = {"strategy": "jwt", "accessToken": token}
        call_service(connection, Call("create", path, data=data, has_data=True))
        return
    if not apps.is_installed("django.contrib.sessions"):
        return
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        return
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(request)
    if user.is_authenticated:
        connection.login(user, {"strategy": "session"}, session_key=session_key)


def _handshake_environ(connection: Connection) -> dict[str, Any]:
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/socket.io/",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.input": io.BytesIO(b""),
    }
    environ.update(connection.environ)
    return environ

"""
Logging a socket in with the credentials of its handshake.

    handshake_login(connection)     # before the connection is accepted

A token in the `Authorization` header is a jwt `create` on the authentication service, as
Feathers' socket.io middleware makes it (a refused connection when it fails); without one, a
logged-in Django session cookie logs the connection in.
"""

from __future__ import annotations

import io
from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.wsgi import WSGIRequest
from django.db import close_old_connections

from ..authentication.authenticators import get_access_token
from .connection import Connection
from .dispatch import Call, call_service
from .login import authentication_path, end_if_ended

__all__ = ["handshake_login"]


def handshake_login(connection: Connection) -> None:
    """
    Log `connection` in with its handshake's credentials, if any (in a worker thread).

    A token in the `Authorization` header is a jwt `create` on the authentication service;
    its error is raised as the `Failed` of `dispatch`, and the connection is refused. Without
    one, a logged-in Django session cookie logs the connection in.
    """
    close_old_connections()
    try:
        _login(connection)
    finally:
        close_old_connections()


def _login(connection: Connection) -> None:
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
    mark = connection.logins.mark() if connection.logins is not None else None
    user = get_user(request)
    if user.is_authenticated:
        connection.login(user, {"strategy": "session"}, session_key=session_key)
        end_if_ended(connection, mark)


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

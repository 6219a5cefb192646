"""
Logging a socket in and out, as Feathers' authentication does it over socket.io.

    after_call(connection, service, "create", body, request)   # a login: remember it

A `create` on the authentication service (any strategy) logs the connection in with the token
it answers (and, with the session strategy, the Django session it came from); a `remove` logs
it out (the handshake's login is in `handshake.py`). The login is
kept as the jwt strategy and the token, so each later call re-checks the token; a call whose
authentication finds nobody, and whose login no longer holds, reports it lost (`login_lost`),
and the server logs the connection out.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user
from django.http import HttpRequest
from rest_framework.exceptions import APIException

from ...errors import FeathersError
from ..authentication.config import authentication_settings, is_configured
from ..authentication.strategies import get_strategy
from .connection import Connection, token_header, token_scheme
from .logins import login_keys

__all__ = [
    "after_call",
    "authentication_path",
    "end_if_ended",
    "is_login_call",
    "login_holds",
    "login_lost",
    "restore_login",
    "token_header",
    "token_scheme",
]


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
            mark = connection.logins.mark() if connection.logins is not None else None
            checked = get_strategy("jwt").authenticate({"accessToken": token}, request)
            # A login with the session strategy ends with that Django session too.
            strategy = (result.get("authentication") or {}).get("strategy")
            session_key = connection.session_key if strategy == "session" else None
            connection.login(checked.user, dict(checked.authentication), session_key)
            end_if_ended(connection, mark)


def end_if_ended(connection: Connection, mark: int | None) -> None:
    """
    Log `connection` out if its new login, checked after `mark` (`LoginIndex.mark()`), ended
    before it was filed in the index, where the ending did not find it.
    """
    index, login = connection.logins, connection.authentication
    if index is None or mark is None or login is None:
        return
    ended = index.ended_since(mark)
    keys = login_keys(connection)
    if ended is not None and keys.isdisjoint(ended):
        return
    exact = {key for key in keys if key[0] != "user"}
    if (ended is not None and not exact.isdisjoint(ended)) or not login_holds(connection, login):
        connection.logout()


def is_login_call(args: Any) -> bool:
    """Whether an event's arguments call the authentication service (a login or a logout)."""
    if not args or not isinstance(args[0], str):
        return False
    return args[0].strip("/") == authentication_path()


def login_lost(connection: Connection, used: Mapping[str, Any] | None, request: Any) -> bool:
    """
    Whether a call made with the login `used` found it gone: the service's authenticators ran
    and found nobody, and the login no longer holds (a revoked, expired or outdated token, a
    deleted or inactive user, a changed password, an ended Django session).
    """
    if used is None or request is None or not getattr(request, "authenticators", None):
        return False
    # DRF's authenticated user, set once its authenticators ran (or failed).
    user = vars(request).get("_user")
    if user is None or getattr(user, "is_authenticated", False):
        return False
    return not login_holds(connection, used, request)


def login_holds(connection: Connection, used: Mapping[str, Any], request: Any = None) -> bool:
    """
    Whether the login `used` of `connection` still holds: its Django session still logged in
    as a user, or its token still accepted by the jwt strategy (reads the database).
    """
    if used.get("strategy") == "session":
        if connection.session_key is None:
            return False
        http = HttpRequest()
        http.session = import_module(settings.SESSION_ENGINE).SessionStore(connection.session_key)
        # Read only: `get_user` flushes a session whose password hash is stale, and a password
        # change is checked here before Django's `update_session_auth_hash` keeps the session.
        http.session.flush = lambda: None  # type: ignore[method-assign]
        return bool(get_user(http).is_authenticated)
    token = used.get("accessToken")
    if not isinstance(token, str):
        return False
    try:
        get_strategy("jwt").authenticate({"accessToken": token}, request)
    except (FeathersError, APIException):
        return False
    return True


def restore_login(
    connection: Connection, authentication: Mapping[str, Any] | None, session_key: str | None
) -> None:
    """
    Log a recovered `connection` in with the login its lost connection had, if it still
    holds (its token still accepted by the jwt strategy, its Django session still logged in);
    else it stays anonymous. Reads the database.
    """
    if authentication is None:
        return
    mark = connection.logins.mark() if connection.logins is not None else None
    session_user = None
    if session_key:
        # A login made with a Django session ends with it.
        if not apps.is_installed("django.contrib.sessions"):
            return
        http = HttpRequest()
        http.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        http.session.flush = lambda: None  # type: ignore[method-assign]
        session_user = get_user(http)
        if not session_user.is_authenticated:
            return
    if authentication.get("strategy") == "session":
        if session_user is not None:
            connection.login(session_user, {"strategy": "session"}, session_key=session_key)
    else:
        token = authentication.get("accessToken")
        if not isinstance(token, str):
            return
        try:
            checked = get_strategy("jwt").authenticate({"accessToken": token}, None)
        except (FeathersError, APIException):
            return
        connection.login(checked.user, dict(checked.authentication), session_key or None)
    end_if_ended(connection, mark)

"""
`Connection`: what the server knows about one socket.io socket, as Feathers' `connection`.

    connection = Connection.from_environ(sid, environ)   # at the handshake
    connection.headers["user-agent"]                     # the handshake's headers, lower case
    connection.login(user, {"strategy": "jwt", "accessToken": T, "payload": {...}})
    connection.logout()

A connection lives as long as its socket. It starts anonymous; a `create` on the authentication
service (or the handshake's `Authorization` header, or a Django session cookie) logs it in, and
the calls made on it afterwards carry that user. Every call re-checks the credentials, so an
expired token, a deleted user or a closed session is refused at the next call; a login ended on
the server (see `revocation.py`) logs the connection out at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from collections.abc import Mapping
from typing import Any

from django.http.request import HttpHeaders

from ...clock import Alarm
from ..authentication.config import authentication_settings
from .logins import LoginIndex

__all__ = ["Connection", "token_header", "token_scheme"]

#: The handshake's environ keys a call's request keeps besides the headers.
_KEPT_ENVIRON = ("REMOTE_ADDR", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme")


@dataclasses.dataclass(eq=False)
class Connection:
    """
    One socket: its handshake and its login state.

    **Attributes:**

    * **sid** - the socket.io session id.
    * **headers** - the handshake's headers, names in lower case (`params.headers`).
    * **environ** - the handshake's WSGI-style environ entries that each call's request keeps
      (`HTTP_*` headers, `REMOTE_ADDR`, server name and port).
    * **user** - the logged-in user, or None.
    * **authentication** - `{"strategy": "jwt", "accessToken": T, "payload": {...}}` after a
      token login, `{"strategy": "session"}` for a Django session, else None.
    * **session_key** - the Django session of a session login.
    """

    sid: str
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    environ: dict[str, Any] = dataclasses.field(default_factory=dict)
    user: Any = None
    authentication: dict[str, Any] | None = None
    session_key: str | None = None
    #: The timer that disconnects the socket at the token's expiry, and the time it is set for.
    expiry: Alarm | None = dataclasses.field(default=None, repr=False)
    expiry_at: float | None = dataclasses.field(default=None, repr=False)
    #: Held by logins, logouts and the logout of a lost login: one after the other.
    login_lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock, repr=False)
    #: The login a call found gone (set in the call's thread, acted on in the event loop).
    lost_login: dict[str, Any] | None = dataclasses.field(default=None, repr=False)
    #: The server's index its logins are filed in, so that a login ended elsewhere finds it.
    logins: LoginIndex | None = dataclasses.field(default=None, repr=False)

    @classmethod
    def from_environ(cls, sid: str, environ: Mapping[str, Any]) -> Connection:
        """The connection of a new socket, from the environ python-engineio built."""
        kept: dict[str, Any] = {}
        headers: dict[str, str] = {}
        for key, value in environ.items():
            if key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                name = key[5:] if key.startswith("HTTP_") else key
                # Interned: every connection shares one string per header name.
                headers[sys.intern(name.replace("_", "-").lower())] = value
                if key.startswith("HTTP_"):
                    kept[key] = value
            elif key in _KEPT_ENVIRON:
                kept[key] = value
        scope = environ.get("asgi.scope")
        if isinstance(scope, Mapping):
            # python-engineio fills in a fixed address; the ASGI server knows the real one.
            client = scope.get("client")
            if client:
                kept["REMOTE_ADDR"] = client[0]
            server = scope.get("server")
            if server:
                kept["SERVER_NAME"], kept["SERVER_PORT"] = server[0], str(server[1])
            kept["wsgi.url_scheme"] = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return cls(sid=sid, headers=headers, environ=kept)

    @property
    def is_authenticated(self) -> bool:
        """Whether the connection is logged in."""
        return self.authentication is not None

    @property
    def access_token(self) -> str | None:
        """The token of a token login, else None."""
        if self.authentication is None:
            return None
        return self.authentication.get("accessToken")

    @property
    def expires_at(self) -> float | None:
        """When the login's token expires (its `exp`, a Unix time), or None."""
        if self.authentication is None:
            return None
        exp = (self.authentication.get("payload") or {}).get("exp")
        return float(exp) if isinstance(exp, (int, float)) else None

    def login(
        self, user: Any, authentication: dict[str, Any], session_key: str | None = None
    ) -> None:
        """Remember a login, replacing any earlier one."""
        self.user = user
        self.authentication = authentication
        self.session_key = session_key
        if self.logins is not None:
            self.logins.update(self)

    def request_environ(self) -> dict[str, Any]:
        """
        The environ of a call's request: the handshake's, without the token header it may
        have had. The login's own token goes with the request as it is (`access_token`, see
        `call_request.build_request`), so that every call checks the login again.
        """
        environ = dict(self.environ)
        environ.pop(token_header(), None)
        return environ

    def logout(self) -> None:
        """Forget the login: the connection is anonymous again."""
        self.user = None
        self.authentication = None
        self.session_key = None
        if self.logins is not None:
            self.logins.update(self)


def token_header() -> str:
    """The environ key of the header access tokens travel in (`HTTP_AUTHORIZATION`)."""
    return HttpHeaders.to_wsgi_name(authentication_settings()["JWT"]["HEADER"])


def token_scheme() -> str:
    """The scheme a call's token is sent with (the first of `JWT["SCHEMES"]`)."""
    schemes = authentication_settings()["JWT"]["SCHEMES"]
    return schemes[0] if schemes else "Bearer"

"""
The bridges sending the caller's own credentials: `forward-bearer` and `forward-session`.

    "AUTH": {"STRATEGY": "forward-bearer"}
    "AUTH": {"STRATEGY": "forward-session"}

    remotes["billing"].for_request(request).service("invoices").find()

They read the incoming request (`credentials_of`), and `for_request()` binds what they read to
a view of the remote; without a request, they send nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, CSRF_SESSION_KEY
from django.utils.crypto import get_random_string

from ...contract import CUSTOM_METHOD_VERB, HTTP_VERBS
from .base import Bridge, TokenHeader, invalid

__all__ = ["ForwardBearer", "ForwardSession", "SessionCredentials"]

SESSION_MIDDLEWARE = "django.contrib.sessions.middleware.SessionMiddleware"
_SAFE_HTTP_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# What may stand in a Cookie header value without quoting (RFC 6265 cookie-octet).
_COOKIE_VALUE = re.compile(r"^[!#-+\--:<-\[\]-~]+$")
_CSRF_VALUE = re.compile(rf"^[{re.escape(CSRF_ALLOWED_CHARS)}]+$")


class ForwardBearer(TokenHeader):
    """
    `forward-bearer`: the incoming request's bearer token goes on to the remote.

    Only `<SCHEME> <token>` in `HEADER` is forwarded; any other credentials (Basic, cookies)
    stay here.
    """

    forwards = True

    def credentials_of(self, request: Any) -> str | None:
        parts = request.headers.get(self.header, "").split()
        if self.scheme:
            if len(parts) == 2 and parts[0].lower() == self.scheme.lower():
                return parts[1]
            return None
        return parts[0] if len(parts) == 1 else None

    def request_headers(self, credentials: Any, method: str) -> dict[str, str]:
        return self.token_header(credentials) if credentials else {}


@dataclasses.dataclass(frozen=True)
class SessionCredentials:
    """The session cookie of an incoming request, and the CSRF secret (or token) to match."""

    session_key: str
    csrf_token: str | None = dataclasses.field(default=None, repr=False)

    def __repr__(self) -> str:
        return "SessionCredentials(...)"


class ForwardSession(Bridge):
    """
    `forward-session`: the incoming request's Django session cookie goes on to the remote.

    For sibling Django projects sharing the session store (database, cache). Unsafe methods
    (every method but find and get) also send the CSRF cookie and its token in the CSRF header,
    as Django's CSRF check asks; over HTTPS they send an `Origin` and a `Referer` of the
    `BASE_URL`, so the remote must see that host (or list it in `CSRF_TRUSTED_ORIGINS`).
    The request's CSRF secret is used when it has one; otherwise a fresh one is made (with
    `CSRF_USE_SESSIONS`, the one of the shared session is needed).
    """

    keys = frozenset({"SESSION_COOKIE", "CSRF_COOKIE", "CSRF_HEADER"})
    forwards = True

    @property
    def session_cookie(self) -> str:
        return self.options["SESSION_COOKIE"] or settings.SESSION_COOKIE_NAME

    @property
    def csrf_cookie(self) -> str:
        return self.options["CSRF_COOKIE"] or settings.CSRF_COOKIE_NAME

    @property
    def csrf_header(self) -> str:
        name = self.options["CSRF_HEADER"]
        if name:
            return name
        meta_name = settings.CSRF_HEADER_NAME
        return meta_name.removeprefix("HTTP_").replace("_", "-")

    @classmethod
    def check(cls, options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
        problems = super().check(options, setting)
        for key in sorted(cls.keys):
            value = options[key]
            if value is not None and (not isinstance(value, str) or not value.strip()):
                problems.append(
                    invalid(
                        f"{setting}[{key!r}] must be a name, or None.",
                        "None uses this project's setting (the remote shares it, usually).",
                    )
                )
        if settings.CSRF_USE_SESSIONS and SESSION_MIDDLEWARE not in settings.MIDDLEWARE:
            problems.append(
                Error(
                    f"{setting} forwards the session, with CSRF_USE_SESSIONS, but "
                    f"{SESSION_MIDDLEWARE} is not in MIDDLEWARE.",
                    hint="The CSRF secret is read from the session: add the middleware.",
                    id="django_services.E213",
                )
            )
        return problems

    def credentials_of(self, request: Any) -> SessionCredentials | None:
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if not session_key or not _COOKIE_VALUE.match(session_key):
            return None
        return SessionCredentials(session_key, _csrf_token(request))

    def request_headers(self, credentials: Any, method: str) -> dict[str, str]:
        if credentials is None:
            return {}
        cookies = {self.session_cookie: credentials.session_key}
        headers: dict[str, str] = {}
        token = credentials.csrf_token
        if HTTP_VERBS.get(method, CUSTOM_METHOD_VERB) not in _SAFE_HTTP_METHODS and token:
            cookies[self.csrf_cookie] = token
            headers[self.csrf_header] = token
            url = urlsplit(self.base_url)
            if url.scheme == "https":
                headers["Origin"] = f"{url.scheme}://{url.netloc}"
                headers["Referer"] = f"{self.base_url}/"
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
        return headers


def _csrf_token(request: Any) -> str | None:
    # CsrfViewMiddleware puts the secret it read (cookie or session) in META["CSRF_COOKIE"].
    secret = request.META.get("CSRF_COOKIE")
    if not secret:
        if settings.CSRF_USE_SESSIONS:
            session = getattr(request, "session", None)
            secret = session.get(CSRF_SESSION_KEY) if session is not None else None
        else:
            # A cookie and a header that match are all Django's CSRF check asks for.
            secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME) or get_random_string(
                CSRF_SECRET_LENGTH, CSRF_ALLOWED_CHARS
            )
    if not isinstance(secret, str) or not _CSRF_VALUE.match(secret):
        return None
    return secret

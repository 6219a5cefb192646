"""
The DRF request of a call that arrived without one: a socket call, or an internal call given
a provider. Built in one place, below the transports, from the call's context.

    request = build_request(service, "find", "people", params, None)   # request.method "GET"

It is what DRF's authenticators, permissions and throttles read, and nothing more: the verb
the method stands for, the path, the headers, the call's data as `request.data` (never a body
to parse again), and the caller's credentials:

* a call on a connection (`params.connection`, a socket) carries the connection's: its
  handshake's environ (`connection.request_environ()`), its login's token as it is
  (`request.access_token`, which `get_access_token` reads before any header) and its Django
  session, checked again by the service's authenticators on every call;
* any other call brings its user (`params.user`, `params.authentication`), taken as it is.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from rest_framework.request import Request
from rest_framework.settings import api_settings

from ..._drf_compat import mark_authenticated, replace_body, set_parsed_data, skip_csrf_checks
from ...contract import CUSTOM_METHOD_VERB, HTTP_VERBS

__all__ = ["CallRequest", "build_request"]

_UNPREFIXED = ("CONTENT_TYPE", "CONTENT_LENGTH")


class CallRequest(HttpRequest):
    """The Django request of a call without HTTP: no body, no stream, the caller's scheme."""

    #: The access token of the connection the call came on (its login's), or None.
    access_token: str | None = None

    def _get_scheme(self) -> str:
        return str(self.META.get("wsgi.url_scheme", "http"))


def build_request(service: Any, method: str, path: str | None, params: Any, data: Any) -> Request:
    """
    The minimal DRF request standing for a call (see the module): `method` of `service` on
    `path`, with its `params` and `data`.
    """
    connection = params.connection
    http = CallRequest()
    # The verb the call stands for, for permission classes that read `request.method`.
    http.method = HTTP_VERBS.get(method, CUSTOM_METHOD_VERB)
    http.path = http.path_info = "/" + (path or "").strip("/")
    meta = http.META
    if connection is not None:
        meta.update(connection.request_environ())
        http.access_token = connection.access_token
    else:
        for name, value in params.headers.items():
            key = name.upper().replace("-", "_")
            meta[key if key in _UNPREFIXED else "HTTP_" + key] = value
    meta.setdefault("SERVER_NAME", "localhost")
    meta.setdefault("SERVER_PORT", "80")
    meta.setdefault("REMOTE_ADDR", "127.0.0.1")
    meta.setdefault("HTTP_ACCEPT", "application/json")
    # Cross-site sockets are refused at the handshake (python-engineio checks the Origin of
    # every handshake and polling request), which is what the CSRF check protects REST from.
    skip_csrf_checks(http)
    replace_body(http, b"")
    if connection is None:
        return _with_caller(Request(http), params, data)
    session_key = connection.session_key
    if session_key is not None:
        http.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        # Lazy, as Django's AuthenticationMiddleware sets it; the stubs admit only a user.
        http.user = SimpleLazyObject(lambda: get_user(http))  # type: ignore[assignment]
    request = service.initialize_request(http)
    set_parsed_data(request, data if data is not None else {})
    # The request the call's authentication read, as an HTTP call's params hold theirs.
    params.request = request
    return request


def _with_caller(request: Request, params: Any, data: Any) -> Request:
    """`request` as the call's own user and authentication, authenticated already."""
    request.user = (
        params.user
        if params.user is not None
        # The stubs type the setting as its import string; DRF imports it (a callable).
        else api_settings.UNAUTHENTICATED_USER()  # type: ignore[operator]
    )
    request.auth = params.authentication
    set_parsed_data(request, data if data is not None else {})
    # Authenticated already (or not at all): DRF must not run authenticators on it later.
    mark_authenticated(request)
    return request

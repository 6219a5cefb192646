"""
Credential bridges: what a remote of `DJANGO_SERVICES["REMOTES"]` sends to say who calls.

    "AUTH": {"STRATEGY": "forward-bearer"}          # the caller's own bearer token
    "AUTH": {"STRATEGY": "forward-session"}         # the caller's Django session cookie
    "AUTH": {"STRATEGY": "token", "TOKEN_ENV": "BILLING_TOKEN"}
    "AUTH": {"STRATEGY": "local", "CREDENTIALS": {"email": "shop@example.com"},
             "CREDENTIALS_ENV": {"password": "BILLING_PASSWORD"}}

One class per strategy: `ForwardBearer`, `ForwardSession`, `StaticToken`, and `Login` for
every other name (a login strategy of the remote); `AUTH["CLASS"]` names a `Bridge` of the
project's own. A bridge reads the incoming request (`credentials_of`), adds headers to each
call (`request_headers`), and may wrap each call (`flow`, a flow of `client/_flow.py`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._flow import Acquire, CacheGet, CacheSet, Flow, Now, Release, call_flow
from .base import Bridge, TokenHeader
from .forward import ForwardBearer, ForwardSession, SessionCredentials
from .login import Login, token_expiry
from .token import StaticToken

__all__ = [
    "BRIDGES",
    "Acquire",
    "Bridge",
    "CacheGet",
    "CacheSet",
    "Flow",
    "ForwardBearer",
    "ForwardSession",
    "Login",
    "Now",
    "Release",
    "SessionCredentials",
    "StaticToken",
    "TokenHeader",
    "call_flow",
    "token_expiry",
]

#: The bridge class of each built-in `STRATEGY`; any other name is a `Login`.
BRIDGES: Mapping[str, type[Bridge]] = {
    "forward-bearer": ForwardBearer,
    "forward-session": ForwardSession,
    "token": StaticToken,
}

"""
Authentication as a Feathers v5 server does it: the `authentication` service, JWTs, strategies.

    DJANGO_SERVICES = {"AUTHENTICATION": {"SECRET": os.environ["JWT_SECRET"]}}

    POST {base}/authentication  {"strategy": "local", "email": ..., "password": ...}
    GET  {base}/messages        Authorization: Bearer <accessToken>

The DRF authentication classes and the strategies import nothing else of the server, so they
can be named in settings and loaded early. The service classes (`AuthenticationService`,
`UserService`) are imported on first access.
"""

from __future__ import annotations

from typing import Any

from .authenticators import JWTAuthentication, SessionAuthentication, get_access_token
from .exceptions import NotAuthenticated
from .strategies import (
    AuthenticationResult,
    BaseStrategy,
    JWTStrategy,
    LocalStrategy,
    SessionStrategy,
)
from .throttling import AuthenticationRateThrottle
from .tokens import create_access_token, verify_access_token

__all__ = [
    "AuthenticationRateThrottle",
    "AuthenticationResult",
    "AuthenticationService",
    "BaseStrategy",
    "JWTAuthentication",
    "JWTStrategy",
    "LocalStrategy",
    "NotAuthenticated",
    "SessionAuthentication",
    "SessionStrategy",
    "UserService",
    "create_access_token",
    "get_access_token",
    "verify_access_token",
]

_LAZY = {
    "AuthenticationService": ".service",
    "UserService": ".users",
}


def __getattr__(name: str) -> Any:
    # The service classes build on the server's Service/ModelService; importing them lazily
    # keeps this package importable while `django_services.server` itself is being set up.
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

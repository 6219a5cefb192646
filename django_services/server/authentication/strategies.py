"""
Authentication strategies: each turns the body of `POST /authentication` into a user.

    class APIKeyStrategy(BaseStrategy):
        def authenticate(self, data, request):
            key = APIKey.objects.filter(key=str(data.get("apiKey"))).first()
            if key is None:
                raise NotAuthenticated("Invalid API key")
            return AuthenticationResult(key.user, {"strategy": self.name})

    DJANGO_SERVICES = {"AUTHENTICATION": {
        "STRATEGIES": {"apiKey": "myapp.auth.APIKeyStrategy"},
        "AUTH_STRATEGIES": ["local", "jwt", "apiKey"],
    }}
"""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import auth
from django.contrib.auth.hashers import make_password
from django.core.exceptions import FieldDoesNotExist
from django.http import HttpRequest, HttpResponse
from rest_framework.authentication import CSRFCheck

from django_services import errors
from django_services._drf_compat import django_request
from django_services.conf import import_from_string

from .config import authentication_settings
from .entity import user_for_subject
from .exceptions import NotAuthenticated, token_error
from .fingerprint import check_password_fingerprint
from .revocation import is_revoked, revocation_enabled
from .tokens import REQUIRED_CLAIMS, verify_access_token

__all__ = [
    "AuthenticationResult",
    "BaseStrategy",
    "JWTStrategy",
    "LocalStrategy",
    "SessionStrategy",
    "allowed_strategy",
    "get_strategy",
]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

NO_STRATEGY = "Invalid authentication information (no `strategy` set)"
STRATEGY_NOT_ALLOWED = "Invalid authentication information (strategy not allowed in authStrategies)"


@dataclass
class AuthenticationResult:
    """
    What a strategy returns.

    **Parameters:**

    * **user** - the authenticated user (a model instance).
    * **authentication** - the `authentication` part of the response, at least
      `{"strategy": <name>}`. When it holds an `accessToken` (the jwt strategy), that token is
      sent back as it is instead of a new one.
    * **refresh_token**, **refresh_family** - the refresh token to answer and its family (the
      refresh strategy's heir); None: a login with refresh tokens on starts a new family.
    """

    user: Any
    authentication: dict[str, Any]
    refresh_token: str | None = None
    refresh_family: str | None = None


class BaseStrategy(abc.ABC):
    """
    A way to authenticate, registered under a name in `AUTHENTICATION["STRATEGIES"]`.

    Subclasses implement `authenticate`, and raise `NotAuthenticated` (from
    `django_services.server.authentication`) when the data does not authenticate anyone.

    `throttled` says whether `AUTHENTICATION["THROTTLE_RATE"]` (and `THROTTLE_CLASSES`) count
    and limit the logins made with the strategy. It is true unless a strategy sets it false:
    a strategy checking a secret someone could guess (a password, a code) must be counted;
    one presenting a signed token or an existing session (`jwt`, `session`) need not be.
    """

    #: Whether the authentication service's throttles apply to this strategy's logins.
    throttled: bool = True

    def __init__(self, name: str) -> None:
        self.name = name

    @abc.abstractmethod
    def authenticate(
        self, data: Mapping[str, Any], request: HttpRequest | None
    ) -> AuthenticationResult:
        """Return the result for this request body, or raise a 401 NotAuthenticated."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class LocalStrategy(BaseStrategy):
    """
    Username and password, checked by Django's authentication backends and password hashers.

    The body fields are `LOCAL["USERNAME_FIELD"]` (by default the user model's
    `USERNAME_FIELD`, which Django's `ModelBackend` looks users up by) and
    `LOCAL["PASSWORD_FIELD"]`. With the default, a body without the login field but with the
    model's email field (`{"email": ..., "password": ...}`, what Feathers clients send) logs
    in the one user whose email matches, ignoring case; an email two accounts share logs in
    nobody. Every failure
    (unknown user, wrong password, inactive user, a missing or non-string field) is the same
    401 `LOCAL["ERROR_MESSAGE"]`, after the same password hashing work.
    """

    def authenticate(
        self, data: Mapping[str, Any], request: HttpRequest | None
    ) -> AuthenticationResult:
        options = authentication_settings()["LOCAL"]
        model = auth.get_user_model()
        username = data.get(options["USERNAME_FIELD"] or model.USERNAME_FIELD)
        password = data.get(options["PASSWORD_FIELD"])
        if username is None and options["USERNAME_FIELD"] is None:
            username = _username_by_email(model, data)
        if not (_is_credential(username) and _is_credential(password)):
            # Django's ModelBackend hashes the password once for an unknown user, so that it
            # answers in the time of a wrong password; do the same work here.
            make_password(password if _is_credential(password) else "")
            raise NotAuthenticated(options["ERROR_MESSAGE"])
        user = auth.authenticate(_http_request(request), username=username, password=password)
        if user is None:
            raise NotAuthenticated(options["ERROR_MESSAGE"])
        return AuthenticationResult(user, {"strategy": self.name})


class JWTStrategy(BaseStrategy):
    """
    An access token given back (`{"strategy": "jwt", "accessToken": T}`): the same token is
    returned, with its claims, when it is valid, not revoked, its user still active, and
    issued after the user's last password change (`REVOKE_ON_PASSWORD_CHANGE`).

    Not throttled: clients re-authenticate on every page load and reconnection, and a signed
    token cannot be guessed.
    """

    throttled = False

    def authenticate(
        self, data: Mapping[str, Any], request: HttpRequest | None
    ) -> AuthenticationResult:
        token = data.get("accessToken")
        if not token:
            raise NotAuthenticated("No access token")
        required = (*REQUIRED_CLAIMS, "jti") if revocation_enabled() else REQUIRED_CLAIMS
        payload = verify_access_token(token, required=required)
        if is_revoked(payload):
            raise token_error("jwt revoked")
        user = user_for_subject(payload["sub"])
        check_password_fingerprint(payload, user)
        return AuthenticationResult(
            user, {"strategy": self.name, "accessToken": token, "payload": payload}
        )


class SessionStrategy(BaseStrategy):
    """
    The user of a logged-in Django session, so a page Django rendered can hand a token to a
    Feathers client in the browser. The request must pass Django's CSRF check (send the
    `X-CSRFToken` header), as any unsafe request authenticated by a session cookie.

    Not throttled: the login happened when the session was opened.
    """

    throttled = False

    def authenticate(
        self, data: Mapping[str, Any], request: HttpRequest | None
    ) -> AuthenticationResult:
        http_request = _http_request(request)
        user = None
        if http_request is not None and hasattr(http_request, "session"):
            # Read the session itself: DRF replaces `request.user` with its own result, which
            # is anonymous on a view without authentication classes such as this service.
            user = auth.get_user(http_request)
        if http_request is None or user is None or not user.is_authenticated or not user.is_active:
            raise NotAuthenticated("No logged-in session")
        enforce_csrf(http_request)
        return AuthenticationResult(user, {"strategy": self.name})


def _unused_view(request: HttpRequest) -> HttpResponse:
    """The view and the next handler a CSRF check is given: it calls neither."""
    raise NotImplementedError


def enforce_csrf(request: HttpRequest) -> None:
    """Run Django's CSRF check on `request`; a failure is a 403 Forbidden naming the reason."""
    check = CSRFCheck(_unused_view)
    check.process_request(request)
    reason = check.process_view(request, _unused_view, (), {})
    if reason:
        raise errors.Forbidden(f"CSRF Failed: {reason}")


def get_strategy(name: str) -> BaseStrategy:
    """Return the strategy registered as `name` in `AUTHENTICATION["STRATEGIES"]`."""
    strategies = authentication_settings()["STRATEGIES"]
    if name not in strategies:
        raise NotAuthenticated(STRATEGY_NOT_ALLOWED)
    strategy_class = import_from_string(
        strategies[name], f"['AUTHENTICATION']['STRATEGIES'][{name!r}]"
    )
    return strategy_class(name)


def allowed_strategy(name: Any) -> BaseStrategy:
    """Return the strategy `name` when `AUTH_STRATEGIES` lets it create tokens, else a 401."""
    if not name:
        raise NotAuthenticated(NO_STRATEGY)
    if not isinstance(name, str) or name not in authentication_settings()["AUTH_STRATEGIES"]:
        raise NotAuthenticated(STRATEGY_NOT_ALLOWED)
    return get_strategy(name)


def _username_by_email(model: Any, data: Mapping[str, Any]) -> Any:
    """
    The login of the one user whose email is the body's, ignoring case, or None: for a user
    model that logs in by another field (Django's `User`, by `username`), as Feathers clients
    send `email`. An email several accounts share names nobody (the answer is the same 401).
    """
    email_field = model.get_email_field_name()
    if email_field == model.USERNAME_FIELD or not _is_credential(data.get(email_field)):
        return None
    try:
        model._meta.get_field(email_field)
    except FieldDoesNotExist:
        return None
    manager = model._default_manager
    matches = list(
        manager.filter(**{f"{email_field}__iexact": data[email_field]}).values_list(
            model.USERNAME_FIELD, flat=True
        )[:2]
    )
    return matches[0] if len(matches) == 1 else None


def _is_credential(value: Any) -> bool:
    # A NUL character can never be stored (PostgreSQL refuses it outright), and a lone
    # surrogate ("\ud800" in JSON) has no UTF-8 form to store or hash: neither ever matches.
    return (
        isinstance(value, str)
        and value != ""
        and "\x00" not in value
        and not _LONE_SURROGATE.search(value)
    )


def _http_request(request: Any) -> HttpRequest | None:
    """Return Django's HttpRequest behind a DRF Request (backends expect Django's own)."""
    return django_request(request)

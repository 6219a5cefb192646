"""
Refresh tokens: long-lived, single-use, rotated at each use, kept server-side by their hash.

    DJANGO_SERVICES = {"AUTHENTICATION": {"AUTH_STRATEGIES": ["local", "jwt", "refresh"]}}

    POST /authentication {"strategy": "local", ...}       -> accessToken, refreshToken R1
    POST /authentication {"strategy": "refresh", "refreshToken": R1}
                                                          -> a new accessToken, R2; R1 is spent
    POST /authentication {"strategy": "refresh", "refreshToken": R1}   (again)
                                                          -> 401; R2 and its heirs end too

A refresh token is a JWT of type `refresh` (so it can never be used as an access token, nor an
access token as one) naming its user, with the fingerprint of the user's password: a password
change ends every refresh token of the user, whatever `REVOKE_ON_PASSWORD_CHANGE` says. Each
login starts a family; the access tokens of a family carry its id as their `sid` claim, so a
logout with one ends the family. Spending a token is one conditional UPDATE, so of two
refreshes racing with the same token the database lets exactly one win, and the other is
a reuse: it ends the family, the winner's heir included.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

import jwt
from django.conf import settings
from django.db import router, transaction
from django.http import HttpRequest

from ... import clock
from .config import authentication_settings, signing_key, verifying_keys
from .entity import subject_for, user_for_subject
from .exceptions import NotAuthenticated, token_error
from .fingerprint import FINGERPRINT_CLAIM, _fingerprint, _password_hash
from .signals import end_logins
from .strategies import AuthenticationResult, BaseStrategy, _http_request, enforce_csrf
from .tokens import REQUIRED_CLAIMS, _decode_with_any_key, _translate, expires_in_seconds

__all__ = [
    "FAMILY_CLAIM",
    "REFRESH_TOKEN_TYPE",
    "RefreshStrategy",
    "end_family",
    "end_user_families",
    "issue_refresh_token",
    "refresh_enabled",
    "verify_refresh_token",
]

#: The `typ` header of refresh tokens.
REFRESH_TOKEN_TYPE = "refresh"

#: The claim of access tokens naming the refresh token family (the login) they come from.
FAMILY_CLAIM = "sid"

REUSED = "refresh token reused: its login is ended"
REVOKED = "refresh token revoked"
UNKNOWN = "refresh token unknown"
PASSWORD_CHANGED = "refresh token revoked by a password change"


def refresh_enabled() -> bool:
    """Return True when `"refresh"` is in `AUTH_STRATEGIES`: logins answer a refresh token."""
    return "refresh" in authentication_settings()["AUTH_STRATEGIES"]


def refresh_options() -> Mapping[str, Any]:
    """Return `AUTHENTICATION["REFRESH"]`."""
    return authentication_settings()["REFRESH"]


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _fingerprint_of(user: Any) -> str | None:
    password_hash = _password_hash(user)
    return None if password_hash is None else _fingerprint(password_hash, signing_key())


def issue_refresh_token(
    user: Any, family: str | None = None, *, now: float | None = None
) -> tuple[str, str]:
    """
    Sign and store a new refresh token for `user`, in `family` (a new one when None).

    Returns `(token, family)`. `now` (a Unix time) stands for the present, for tests.
    """
    from django_services.models import RefreshToken

    options = authentication_settings()["JWT"]
    issued_at = int(clock.time() if now is None else now)
    lifetime = expires_in_seconds(refresh_options()["EXPIRES_IN"])
    claims: dict[str, Any] = {"iat": issued_at, "exp": issued_at + lifetime}
    if options["AUDIENCE"] is not None:
        claims["aud"] = options["AUDIENCE"]
    if options["ISSUER"] is not None:
        claims["iss"] = options["ISSUER"]
    claims["sub"] = subject_for(user)
    claims["jti"] = str(uuid.uuid4())
    fingerprint = _fingerprint_of(user)
    if fingerprint is not None:
        claims[FINGERPRINT_CLAIM] = fingerprint
    token = jwt.encode(
        claims, signing_key(), algorithm=options["ALGORITHM"], headers={"typ": REFRESH_TOKEN_TYPE}
    )
    family = family or str(uuid.uuid4())
    RefreshToken.objects.create(
        token_hash=token_hash(token),
        family=family,
        subject=claims["sub"],
        issued_at=_datetime(issued_at),
        expires_at=_datetime(claims["exp"]),
    )
    return token, family


def verify_refresh_token(token: Any) -> dict[str, Any]:
    """Return the claims of a well-signed, unexpired refresh token; else a 401."""
    if not isinstance(token, str) or not token:
        raise NotAuthenticated("No refresh token")
    if not token.isascii():
        raise token_error("jwt malformed")
    options = authentication_settings()["JWT"]
    try:
        decoded = _decode_with_any_key(token, options, (*REQUIRED_CLAIMS, "jti"))
    except jwt.InvalidTokenError as exc:
        raise _translate(exc, token) from None
    if decoded["header"].get("typ") != REFRESH_TOKEN_TYPE:
        raise token_error("invalid token type")
    return decoded["payload"]


def end_family(family: Any) -> int:
    """Revoke every refresh token of the login `family`; return how many were still live."""
    from django_services.models import RefreshToken

    if not family:
        return 0
    try:
        family = uuid.UUID(str(family))
    except ValueError:
        return 0
    ended = RefreshToken.objects.filter(family=family, revoked_at__isnull=True).update(
        revoked_at=_now()
    )
    # The sockets logged in with the family's access tokens are logged out once it commits.
    end_logins(family=family, using=router.db_for_write(RefreshToken))
    return ended


def end_user_families(user: Any) -> int:
    """Revoke every refresh token of `user` (every login): after a password change, say."""
    from django_services.models import RefreshToken

    return RefreshToken.objects.filter(subject=subject_for(user), revoked_at__isnull=True).update(
        revoked_at=_now()
    )


def rotate(token: Any) -> tuple[Any, str, str]:
    """
    Spend the refresh token `token` and issue its heir: return `(user, heir, family)`.

    A spent token (a reuse, or the loser of a race) ends its family and is a 401.
    """
    from django_services.models import RefreshToken

    claims = verify_refresh_token(token)
    row = RefreshToken.objects.filter(token_hash=token_hash(token)).first()
    if row is None:
        raise token_error(UNKNOWN)
    if row.revoked_at is not None:
        raise token_error(REVOKED)
    user = user_for_subject(claims["sub"])
    fingerprint = _fingerprint_of(user)
    if fingerprint is not None and not _fingerprint_matches(claims, user):
        end_family(row.family)
        raise token_error(PASSWORD_CHANGED)
    with transaction.atomic():
        spent = RefreshToken.objects.filter(
            pk=row.pk, used_at__isnull=True, revoked_at__isnull=True
        ).update(used_at=_now())
        if spent:
            heir, family = issue_refresh_token(user, str(row.family))
    if not spent:
        end_family(row.family)
        raise token_error(REUSED)
    return user, heir, family


def _fingerprint_matches(claims: Mapping[str, Any], user: Any) -> bool:
    from django.utils.crypto import constant_time_compare

    claim = claims.get(FINGERPRINT_CLAIM)
    password_hash = _password_hash(user)
    return (
        isinstance(claim, str)
        and password_hash is not None
        and any(
            constant_time_compare(claim, _fingerprint(password_hash, key))
            for key in verifying_keys()
        )
    )


def cookie_token(request: HttpRequest | None) -> str | None:
    """The refresh token of the request's cookie, in cookie mode; None otherwise."""
    options = refresh_options()
    if not options["COOKIE"] or request is None:
        return None
    return getattr(request, "COOKIES", {}).get(options["COOKIE_NAME"]) or None


class RefreshStrategy(BaseStrategy):
    """
    `{"strategy": "refresh", "refreshToken": R}`: spend R, answer a new access token and R's
    heir. In cookie mode (`REFRESH["COOKIE"]`) a body without `refreshToken` takes the token
    from the cookie, and must then pass Django's CSRF check (the `X-CSRFToken` header).

    Not throttled: a signed token cannot be guessed.
    """

    throttled = False

    def authenticate(
        self, data: Mapping[str, Any], request: HttpRequest | None
    ) -> AuthenticationResult:
        token = data.get("refreshToken")
        if token is None:
            http_request = _http_request(request)
            token = cookie_token(http_request)
            if token is not None and http_request is not None:
                enforce_csrf(http_request)
        user, heir, family = rotate(token)
        return AuthenticationResult(
            user, {"strategy": self.name}, refresh_token=heir, refresh_family=family
        )


def _now() -> datetime:
    return clock.now()


def _datetime(timestamp: float) -> datetime:
    # Naive local time when the project does not use time zones, as Django stores it then.
    if settings.USE_TZ:
        return datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return datetime.fromtimestamp(timestamp)

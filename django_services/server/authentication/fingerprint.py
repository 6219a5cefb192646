"""
Tokens that end with a password change: each carries a fingerprint of its user's password hash.

    DJANGO_SERVICES = {"AUTHENTICATION": {"REVOKE_ON_PASSWORD_CHANGE": True}}   # the default

    password_fingerprint(user)           # the `auth_hash` claim of a new token for `user`
    check_password_fingerprint(claims, user)   # a 401 when the password changed since

As Django's `get_session_auth_hash` does for sessions, the fingerprint is an HMAC of the stored
password hash, keyed with the token secret: setting a new password (or an unusable one) changes
the hash, so every token issued before no longer matches. The claim reveals nothing of the hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.crypto import constant_time_compare, salted_hmac

from .config import authentication_settings, signing_key, verifying_keys
from .entity import user_for_subject
from .exceptions import NotAuthenticated, token_error

__all__ = [
    "FINGERPRINT_CLAIM",
    "PASSWORD_CHANGED",
    "check_password_fingerprint",
    "fingerprint_enabled",
    "password_fingerprint",
    "subject_fingerprint",
]

#: The claim holding the fingerprint.
FINGERPRINT_CLAIM = "auth_hash"

#: The 401 message for a token issued before its user's password changed.
PASSWORD_CHANGED = "jwt revoked by a password change"

# A purpose of its own, so the value is no other HMAC Django or this package derives.
_SALT = "django_services.server.authentication.password_fingerprint"


def fingerprint_enabled() -> bool:
    """Return True when tokens carry and are checked against the password fingerprint."""
    return bool(authentication_settings()["REVOKE_ON_PASSWORD_CHANGE"])


def _password_hash(user: Any) -> str | None:
    value = getattr(user, "password", None)
    return value if isinstance(value, str) else None


def _fingerprint(password_hash: str, key: str | bytes) -> str:
    return salted_hmac(_SALT, password_hash, secret=key, algorithm="sha256").hexdigest()


def password_fingerprint(user: Any) -> str | None:
    """
    Return the fingerprint a new token for `user` carries, or None when it carries none:
    the setting is off, or the user model stores no password.
    """
    password_hash = _password_hash(user)
    if password_hash is None or not fingerprint_enabled():
        return None
    return _fingerprint(password_hash, signing_key())


def subject_fingerprint(subject: str) -> str | None:
    """Return the fingerprint for the user `subject` names; None when there is no such user."""
    if not fingerprint_enabled():
        return None
    try:
        user = user_for_subject(subject)
    except NotAuthenticated:
        # No token for this subject can be accepted anyway: the user is gone or inactive.
        return None
    return password_fingerprint(user)


def check_password_fingerprint(claims: Mapping[str, Any], user: Any) -> None:
    """
    Refuse (401) a token whose fingerprint is missing or does not match `user`'s password.

    Every secret that verifies tokens is tried, so rotating the secret ends no token.
    """
    password_hash = _password_hash(user)
    if password_hash is None or not fingerprint_enabled():
        return
    claim = claims.get(FINGERPRINT_CLAIM)
    if isinstance(claim, str) and any(
        constant_time_compare(claim, _fingerprint(password_hash, key)) for key in verifying_keys()
    ):
        return
    raise token_error(PASSWORD_CHANGED)

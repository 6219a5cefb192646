"""
Access tokens: JWTs as Feathers issues them, signed and verified with PyJWT.

    token = create_access_token("42")          # sub = "42"
    payload = verify_access_token(token)       # the claims, or a 401 NotAuthenticated

The header is `{"alg": "HS256", "typ": "access"}`; the claims are the extra payload, then
`iat`, `exp`, `aud`, `iss` (when configured), `sub` and `jti`, in Feathers' order, and
`auth_hash`, the fingerprint of the user's password (see `fingerprint.py`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

import jwt

from ... import clock
from .config import authentication_settings, signing_key, verifying_keys
from .exceptions import TOKEN_EXPIRED_ERROR, token_error
from .fingerprint import FINGERPRINT_CLAIM, password_fingerprint, subject_fingerprint

__all__ = [
    "TOKEN_TYPE",
    "access_token_claims",
    "create_access_token",
    "encode_access_token",
    "expires_in_seconds",
    "verify_access_token",
]

#: The `typ` header of access tokens; a token of another type is refused.
TOKEN_TYPE = "access"

#: Claims a token must carry to be accepted.
REQUIRED_CLAIMS: tuple[str, ...] = ("exp", "iat", "sub")

#: Claims this module always sets itself, whatever the extra payload says.
STANDARD_CLAIMS = frozenset({"iat", "exp", "aud", "iss", "sub", "jti", FINGERPRINT_CLAIM})


def expires_in_seconds(value: int | float | timedelta) -> int:
    """Return `JWT["EXPIRES_IN"]` (seconds or a timedelta) as whole seconds."""
    if isinstance(value, timedelta):
        return int(value.total_seconds())
    return int(value)


def access_token_claims(
    subject: str, payload: Mapping[str, Any] | None = None, *, user: Any = None
) -> dict[str, Any]:
    """
    Return the claims of a new access token for `subject` (the user id, as the `sub` string).

    `payload` adds claims of its own; the standard claims are always set by this function.
    The password fingerprint is taken from `user`, or from the user `subject` names when no
    user is given (one query).
    """
    options = authentication_settings()["JWT"]
    issued_at = int(clock.time())
    claims = {key: value for key, value in (payload or {}).items() if key not in STANDARD_CLAIMS}
    claims["iat"] = issued_at
    claims["exp"] = issued_at + expires_in_seconds(options["EXPIRES_IN"])
    if options["AUDIENCE"] is not None:
        claims["aud"] = options["AUDIENCE"]
    if options["ISSUER"] is not None:
        claims["iss"] = options["ISSUER"]
    claims["sub"] = str(subject)
    claims["jti"] = str(uuid.uuid4())
    fingerprint = subject_fingerprint(claims["sub"]) if user is None else password_fingerprint(user)
    if fingerprint is not None:
        claims[FINGERPRINT_CLAIM] = fingerprint
    return claims


def encode_access_token(claims: Mapping[str, Any]) -> str:
    """Sign `claims` as an access token, with the configured algorithm and secret."""
    algorithm = authentication_settings()["JWT"]["ALGORITHM"]
    return jwt.encode(dict(claims), signing_key(), algorithm=algorithm, headers={"typ": TOKEN_TYPE})


def create_access_token(
    subject: str, payload: Mapping[str, Any] | None = None, *, user: Any = None
) -> str:
    """
    Sign a new access token for `subject`, with the extra claims of `payload`.

    It carries the fingerprint of the password of `user`, or of the user `subject` names.
    """
    return encode_access_token(access_token_claims(subject, payload, user=user))


def verify_access_token(token: Any, *, required: tuple[str, ...] = REQUIRED_CLAIMS) -> dict:
    """
    Return the claims of a valid access token.

    Checks the signature with the configured algorithm only, the `typ` header, the claims in
    `required`, then `exp`, `iat`, `aud` and `iss`. Any failure is a 401 NotAuthenticated whose
    message and `data.name` follow Feathers (`jwt expired` / `TokenExpiredError`, ...).
    """
    if not isinstance(token, str) or not token:
        raise token_error("jwt must be provided" if not token else "jwt must be a string")
    if not token.isascii():
        # A JWT is base64url and dots; anything else (even "\ud800", which has no UTF-8 form
        # for PyJWT to decode) is malformed.
        raise token_error("jwt malformed")
    options = authentication_settings()["JWT"]
    try:
        decoded = _decode_with_any_key(token, options, required)
    except jwt.InvalidTokenError as exc:
        raise _translate(exc, token) from None
    if decoded["header"].get("typ") != TOKEN_TYPE:
        raise token_error("invalid token type")
    return decoded["payload"]


def _decode_with_any_key(token: str, options: Mapping[str, Any], required: tuple[str, ...]) -> dict:
    """Decode with each accepted secret in turn, for as long as the signature does not match."""
    keys = verifying_keys()
    for key in keys[:-1]:
        try:
            return _decode(token, key, options, required)
        except jwt.InvalidSignatureError:
            continue
    return _decode(token, keys[-1], options, required)


def _decode(
    token: str, key: str | bytes, options: Mapping[str, Any], required: tuple[str, ...]
) -> dict:
    """
    PyJWT's checks, in PyJWT's order (signature, required claims, times, issuer, audience),
    with the times read from the server's clock: PyJWT reads the machine's.
    """
    # PyJWT 2.8 does not export `decode_complete` at the top level; its class has it.
    signed: Any = {"require": list(required), **_UNCHECKED_CLAIMS}
    decoded = jwt.PyJWT().decode_complete(
        token, key, algorithms=[options["ALGORITHM"]], options=signed
    )
    _check_times(decoded["payload"], options["LEEWAY"])
    # The signature is verified above: this pass reads the claims again, to check `iss`/`aud`.
    addressed: Any = {
        **_UNCHECKED_CLAIMS,
        "verify_signature": False,
        "verify_aud": True,
        "verify_iss": True,
    }
    jwt.PyJWT().decode_complete(
        token,
        algorithms=[options["ALGORITHM"]],
        audience=options["AUDIENCE"],
        issuer=options["ISSUER"],
        options=addressed,
    )
    return decoded


#: What the first pass of `_decode` leaves to `_check_times` and the second pass.
_UNCHECKED_CLAIMS = {
    "verify_exp": False,
    "verify_iat": False,
    "verify_nbf": False,
    "verify_aud": False,
    "verify_iss": False,
}


def _check_times(payload: Mapping[str, Any], leeway: float | timedelta) -> None:
    """PyJWT's `iat`, `nbf` and `exp` checks, with its errors, against the server's clock."""
    margin = leeway.total_seconds() if isinstance(leeway, timedelta) else float(leeway)
    now = clock.time()
    if "iat" in payload:
        iat = _integer(payload["iat"], jwt.InvalidIssuedAtError, "Issued At claim (iat)")
        if iat > now + margin:
            raise jwt.ImmatureSignatureError("The token is not yet valid (iat)")
    if "nbf" in payload:
        nbf = _integer(payload["nbf"], jwt.DecodeError, "Not Before claim (nbf)")
        if nbf > now + margin:
            raise jwt.ImmatureSignatureError("The token is not yet valid (nbf)")
    if "exp" in payload:
        exp = _integer(payload["exp"], jwt.DecodeError, "Expiration Time claim (exp)")
        if exp <= now - margin:
            raise jwt.ExpiredSignatureError("Signature has expired")


def _integer(value: Any, error: type[jwt.InvalidTokenError], claim: str) -> int:
    try:
        return int(value)
    except (ValueError, TypeError, OverflowError):
        raise error(f"{claim} must be an integer.") from None


def _translate(exc: jwt.InvalidTokenError, token: str) -> Exception:
    """Turn a PyJWT failure into the 401 Feathers answers for the same token."""
    if isinstance(exc, jwt.ExpiredSignatureError):
        # The signature was checked before the expiry, so reading `exp` again is safe.
        claims = jwt.decode(token, options={"verify_signature": False})
        expired_at = datetime.fromtimestamp(int(claims["exp"]), tz=timezone.utc)
        iso = expired_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return token_error("jwt expired", TOKEN_EXPIRED_ERROR, expiredAt=iso)
    if isinstance(exc, jwt.InvalidSignatureError):
        return token_error("invalid signature")
    if isinstance(exc, jwt.InvalidAudienceError) or (
        isinstance(exc, jwt.MissingRequiredClaimError) and exc.claim == "aud"
    ):
        expected = authentication_settings()["JWT"]["AUDIENCE"]
        return token_error(
            f"jwt audience invalid. expected: {expected}" if expected else "jwt audience invalid"
        )
    if isinstance(exc, jwt.InvalidIssuerError) or (
        isinstance(exc, jwt.MissingRequiredClaimError) and exc.claim == "iss"
    ):
        expected = authentication_settings()["JWT"]["ISSUER"]
        return token_error(f"jwt issuer invalid. expected: {expected}")
    if isinstance(exc, jwt.MissingRequiredClaimError):
        return token_error(f"jwt {exc.claim} missing")
    if isinstance(exc, jwt.InvalidAlgorithmError):
        return token_error("invalid algorithm")
    if isinstance(exc, jwt.ImmatureSignatureError):
        return token_error("jwt not active")
    if isinstance(exc, jwt.DecodeError):
        return token_error("jwt malformed")
    return token_error(f"invalid token: {exc}")

"""Access tokens: what is signed, and every way a token is refused."""

from __future__ import annotations

import base64
import json
import time
import uuid
from datetime import timedelta

import jwt
import pytest

from django_services import errors
from django_services.server.authentication import create_access_token, verify_access_token

from .conftest import SECRET

# Signing a token looks its user up, for the fingerprint of the password.
pytestmark = pytest.mark.django_db

AUDIENCE = "https://yourdomain.com"


def segment(value: dict) -> str:
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def claims(**overrides) -> dict:
    now = int(time.time())
    base = {
        "iat": now,
        "exp": now + 60,
        "aud": AUDIENCE,
        "iss": "feathers",
        "sub": "1",
        "jti": str(uuid.uuid4()),
    }
    base.update(overrides)
    return {key: value for key, value in base.items() if value is not None}


def sign(payload: dict, *, key: str = SECRET, algorithm: str = "HS256", typ="access") -> str:
    headers = {"typ": typ} if typ is not None else {"typ": None}
    return jwt.encode(payload, key, algorithm=algorithm, headers=headers)


def refused(token) -> errors.NotAuthenticated:
    with pytest.raises(errors.NotAuthenticated) as info:
        verify_access_token(token)
    assert info.value.code == 401
    return info.value


def test_header_is_hs256_of_type_access():
    token = create_access_token("7")
    header = jwt.get_unverified_header(token)
    assert header == {"alg": "HS256", "typ": "access"}
    assert list(header) == ["alg", "typ"], "jsonwebtoken's header order"


def test_claims_in_feathers_order_with_their_values():
    before = int(time.time())
    token = create_access_token("7", {"role": "admin"})
    after = int(time.time())
    payload = jwt.decode(token, SECRET, algorithms=["HS256"], audience=AUDIENCE)
    assert list(payload) == ["role", "iat", "exp", "aud", "iss", "sub", "jti"]
    assert before <= payload["iat"] <= after
    assert payload["exp"] == payload["iat"] + 86400
    assert payload["aud"] == AUDIENCE
    assert payload["iss"] == "feathers"
    assert payload["sub"] == "7"
    assert uuid.UUID(payload["jti"]).version == 4
    assert payload["role"] == "admin"


def test_every_token_has_its_own_jti():
    first, second = create_access_token("7"), create_access_token("7")
    assert verify_access_token(first)["jti"] != verify_access_token(second)["jti"]


def test_standard_claims_cannot_be_overridden_by_the_extra_payload():
    token = create_access_token("7", {"sub": "1", "exp": 1, "aud": "elsewhere", "role": "x"})
    payload = verify_access_token(token)
    assert list(payload) == ["role", "iat", "exp", "aud", "iss", "sub", "jti"]
    assert payload["sub"] == "7"
    assert payload["aud"] == AUDIENCE
    assert payload["exp"] > time.time()


def test_options_change_the_claims(configure):
    configure(
        JWT={
            "ALGORITHM": "HS512",
            "EXPIRES_IN": timedelta(minutes=5),
            "AUDIENCE": "https://api.example.com",
            "ISSUER": None,
        }
    )
    token = create_access_token("7")
    assert jwt.get_unverified_header(token)["alg"] == "HS512"
    payload = verify_access_token(token)
    assert payload["exp"] - payload["iat"] == 300
    assert payload["aud"] == "https://api.example.com"
    assert "iss" not in payload


def test_a_valid_token_gives_its_claims():
    payload = claims(sub="42")
    assert verify_access_token(sign(payload)) == payload


def test_expired_token_is_token_expired_error_with_its_date():
    exp = int(time.time()) - 10
    error = refused(sign(claims(iat=exp - 60, exp=exp)))
    assert error.message == "jwt expired"
    assert error.data["name"] == "TokenExpiredError"
    assert error.data["expiredAt"] == time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(exp))


def test_leeway_tolerates_clock_skew(configure):
    token = sign(claims(exp=int(time.time()) - 5))
    refused(token)
    configure(JWT={"LEEWAY": 30})
    assert verify_access_token(token)["sub"] == "1"


def test_tampered_payload_is_an_invalid_signature():
    header, _, signature = sign(claims(sub="1")).split(".")
    forged = f"{header}.{segment(claims(sub='2'))}.{signature}"
    error = refused(forged)
    assert error.message == "invalid signature"
    assert error.data == {"name": "JsonWebTokenError"}


def test_hs256_signed_with_another_key_is_an_invalid_signature():
    error = refused(sign(claims(), key="another-secret-that-is-long-enough-for-hs256!!"))
    assert error.message == "invalid signature"


@pytest.mark.parametrize("alg", ["none", "None", "NONE"])
def test_alg_none_is_refused(alg):
    unsigned = f"{segment({'alg': alg, 'typ': 'access'})}.{segment(claims())}."
    error = refused(unsigned)
    assert error.data == {"name": "JsonWebTokenError"}
    assert error.message in {"invalid algorithm", "jwt malformed"}


def test_alg_none_from_pyjwt_is_refused():
    unsigned = jwt.encode(claims(), None, algorithm="none", headers={"typ": "access"})
    assert refused(unsigned).message == "invalid algorithm"


def test_another_hmac_algorithm_with_the_right_key_is_refused():
    assert refused(sign(claims(), algorithm="HS512")).message == "invalid algorithm"


def test_wrong_audience_names_the_expected_one():
    error = refused(sign(claims(aud="https://elsewhere.example")))
    assert error.message == f"jwt audience invalid. expected: {AUDIENCE}"
    assert error.data == {"name": "JsonWebTokenError"}


def test_missing_audience_is_refused_when_one_is_configured():
    assert refused(sign(claims(aud=None))).message.startswith("jwt audience invalid")


def test_an_audience_is_refused_when_none_is_configured(configure):
    configure(JWT={"AUDIENCE": None})
    assert refused(sign(claims())).message == "jwt audience invalid"
    assert verify_access_token(sign(claims(aud=None)))["sub"] == "1"


def test_wrong_issuer_is_refused():
    error = refused(sign(claims(iss="someone-else")))
    assert error.message == "jwt issuer invalid. expected: feathers"


@pytest.mark.parametrize("claim", ["exp", "iat", "sub"])
def test_required_claims(claim):
    assert refused(sign(claims(**{claim: None}))).message == f"jwt {claim} missing"


def test_a_token_from_the_future_is_refused():
    now = int(time.time())
    assert refused(sign(claims(iat=now + 3600, exp=now + 7200))).message == "jwt not active"


@pytest.mark.parametrize("typ", ["JWT", "refresh", None])
def test_only_access_tokens_are_accepted(typ):
    assert refused(sign(claims(), typ=typ)).message == "invalid token type"


@pytest.mark.parametrize(
    "token",
    ["garbage", "a.b.c", "a.b", "...", "eyJhbGciOiJIUzI1NiJ9.%%%.x", "é.é.é", "\ud800"],
)
def test_malformed_tokens(token):
    error = refused(token)
    assert error.message == "jwt malformed"
    assert error.data == {"name": "JsonWebTokenError"}


@pytest.mark.parametrize("token", [None, "", 42, ["x"], {"a": 1}])
def test_a_token_must_be_a_non_empty_string(token):
    assert refused(token).message in {"jwt must be provided", "jwt must be a string"}


def test_a_deeply_nested_payload_is_malformed_not_a_crash():
    deep = "[" * 100_000 + "]" * 100_000
    body = base64.urlsafe_b64encode(deep.encode()).rstrip(b"=").decode()
    assert refused(f"{segment({'alg': 'HS256', 'typ': 'access'})}.{body}.x").message == (
        "jwt malformed"
    )


def test_secret_fallbacks_verify_but_never_sign(configure):
    old = "the-previous-secret-which-is-also-long-enough-for-hs256-signing"
    old_token = sign(claims(), key=old)
    refused(old_token)
    configure(SECRET_FALLBACKS=[old])
    assert verify_access_token(old_token)["sub"] == "1"
    new = create_access_token("1")
    jwt.decode(new, SECRET, algorithms=["HS256"], audience=AUDIENCE)
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(new, old, algorithms=["HS256"], audience=AUDIENCE)


def test_without_a_secret_the_key_is_derived_from_secret_key(settings):
    settings.DJANGO_SERVICES = {"AUTHENTICATION": {}}
    token = create_access_token("1")
    assert verify_access_token(token)["sub"] == "1"
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(token, settings.SECRET_KEY, algorithms=["HS256"], audience=AUDIENCE)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-django-secret-key-after-rotation-long-enough"
    assert verify_access_token(token)["sub"] == "1", "SECRET_KEY_FALLBACKS are honoured"
    settings.SECRET_KEY_FALLBACKS = []
    assert refused(token).message == "invalid signature"

"""
The schemas every service shares: the Feathers error, the error responses, `/authentication`.

    error_responses(["get"])   # {"400": {"$ref": "#/components/responses/BadRequest"}, ...}
    shared_components()        # {"schemas": {...}, "responses": {...}}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import errors

__all__ = [
    "AUTHENTICATION_REQUEST",
    "AUTHENTICATION_RESULT",
    "ERROR_SCHEMA",
    "error_responses",
    "json_response",
    "shared_components",
    "union",
]

ERROR_SCHEMA = "FeathersError"
AUTHENTICATION_REQUEST = "AuthenticationRequest"
AUTHENTICATION_RESULT = "AuthenticationResult"

_ERROR = {
    "type": "object",
    "description": "The body of every error, as Feathers sends it.",
    "required": ["name", "message", "code", "className"],
    "properties": {
        "name": {"type": "string", "examples": ["BadRequest"]},
        "message": {"type": "string", "examples": ["Invalid query field 'colour'"]},
        "code": {"type": "integer", "examples": [400]},
        "className": {"type": "string", "examples": ["bad-request"]},
        "data": {"description": "Extra data of the error."},
        "errors": {
            "description": "Per-field messages of a validation error.",
            "type": ["object", "array"],
        },
    },
}

#: The statuses any call may answer, whatever its method.
_EVERY_CALL = (400, 401, 403, 404, 405, 406, 429, 500, 503)
#: The statuses of calls that send a body.
_WITH_BODY = (409, 411, 413, 415)

#: Statuses without a Feathers error class of their own (their body still is a Feathers error).
_OTHER_NAMES = {413: "PayloadTooLarge", 415: "UnsupportedMediaType"}

_DESCRIPTIONS = {
    400: "Bad request: an invalid query, body or id, named in `message` (and `errors`).",
    401: "Not authenticated: no valid token or session where one is needed.",
    403: "Forbidden: the permissions of the service refuse the call.",
    404: "Not found: no record with this id matches the query, or no service at this path.",
    405: "Method not allowed: the service does not expose it, or not for several records.",
    406: "Not acceptable: the `Accept` header asks for something other than JSON.",
    409: "Conflict: a record with this id already exists.",
    411: "Length required: a body sent without `Content-Length`.",
    413: "Payload too large: the body exceeds `DATA_UPLOAD_MAX_MEMORY_SIZE`.",
    415: "Unsupported media type: the body is not JSON.",
    429: "Too many requests: throttled; `Retry-After` says when to try again.",
    500: "General error.",
    503: "Unavailable: the service cannot answer now; `Retry-After` may say when.",
}


def _response_name(status: int) -> str:
    error_class = errors.get(status)
    return error_class.__name__ if error_class is not None else _OTHER_NAMES[status]


def error_responses(*, with_body: bool) -> dict[str, Any]:
    """References to the shared error responses of a call (with a body: 409, 411, 413, 415)."""
    statuses = sorted((*_EVERY_CALL, *(_WITH_BODY if with_body else ())))
    return {
        str(status): {"$ref": f"#/components/responses/{_response_name(status)}"}
        for status in statuses
    }


def _error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": _DESCRIPTIONS[status],
        "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}}
        },
    }
    if status in (429, 503):
        response["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again.",
                "schema": {"type": "integer", "minimum": 0},
            }
        }
    return response


def _login_field() -> str:
    """The body field of the local strategy's login (the user model's, by default)."""
    from django.contrib.auth import get_user_model

    from ..server.authentication.config import authentication_settings

    field = authentication_settings()["LOCAL"]["USERNAME_FIELD"]
    return str(field or get_user_model().USERNAME_FIELD)


def _password_field() -> str:
    from ..server.authentication.config import authentication_settings

    return str(authentication_settings()["LOCAL"]["PASSWORD_FIELD"])


def _refresh_on() -> bool:
    from ..server.authentication.refresh import refresh_enabled

    return refresh_enabled()


def _authentication_request() -> dict[str, Any]:
    login = _login_field()
    refresh = _refresh_on()
    properties: dict[str, Any] = {
        "strategy": {
            "type": "string",
            "examples": ["local", "jwt", "refresh"] if refresh else ["local", "jwt"],
        },
        "accessToken": {"type": "string", "description": "For the `jwt` strategy."},
        login: {"type": "string", "description": "For the `local` strategy: the login."},
        _password_field(): {
            "type": "string",
            "writeOnly": True,
            "description": "For the `local` strategy.",
        },
    }
    if refresh:
        properties["refreshToken"] = {
            "type": "string",
            "description": (
                "For the `refresh` strategy; in cookie mode it is left out and the "
                "refresh cookie is read instead."
            ),
        }
    return {
        "type": "object",
        "description": (
            "A login: `local` with the login field and password, `jwt` with a token to "
            "re-authenticate, "
            + (
                "`refresh` with a refresh token to trade for new tokens (it is spent: "
                "presenting it again ends its login), "
                if refresh
                else ""
            )
            + "or any strategy the project enables."
        ),
        "required": ["strategy"],
        "properties": properties,
        "additionalProperties": True,
    }


def _authentication_result() -> dict[str, Any]:
    refresh_token = {
        "refreshToken": {
            "type": "string",
            "description": (
                "Answered by every login that issues a new access token: a single-use token "
                "for `{strategy: 'refresh'}` (not in cookie mode, where it is set as an "
                "HttpOnly cookie)."
            ),
        }
    }
    return {
        "type": "object",
        "required": ["accessToken", "authentication"],
        "properties": {
            "accessToken": {"type": "string", "description": "A JWT for `Authorization: Bearer`."},
            **(refresh_token if _refresh_on() else {}),
            "authentication": {
                "type": "object",
                "required": ["strategy"],
                "properties": {
                    "strategy": {"type": "string"},
                    "accessToken": {"type": "string"},
                    "payload": {"type": "object", "description": "The claims of the token."},
                },
            },
            "user": {"type": "object", "description": "The authenticated user."},
        },
    }


def shared_components(statuses: Iterable[int] | None = None) -> dict[str, dict[str, Any]]:
    """The error schema and responses, and the `/authentication` bodies."""
    every = sorted({*_EVERY_CALL, *_WITH_BODY} if statuses is None else set(statuses))
    return {
        "schemas": {
            ERROR_SCHEMA: _ERROR,
            AUTHENTICATION_REQUEST: _authentication_request(),
            AUTHENTICATION_RESULT: _authentication_result(),
        },
        "responses": {_response_name(status): _error_response(status) for status in every},
    }


def json_response(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A response with a JSON body of `schema`."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def union(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    """One of `schemas` (any JSON when one of them is)."""
    unique: list[dict[str, Any]] = []
    for schema in schemas:
        if schema not in unique:
            unique.append(schema)
    if any(not schema for schema in unique):
        return {}
    return unique[0] if len(unique) == 1 else {"anyOf": unique}

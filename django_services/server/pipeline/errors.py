"""
The Feathers error of any exception: what error hooks see and every transport sends.

    to_feathers_error(exc)   # -> a FeathersError for any exception
    retry_after(exc)         # -> the seconds a client waits before it sends the call again

DRF's and Django's own exceptions are mapped to the class of their status code (validation
errors to BadRequest with `errors` per field); a transient database error (a lock wait that
timed out, a deadlock, a serialization failure, a lost connection) is a 503 Unavailable; a
constraint the serializer could not see is a 409 Conflict or a 400; anything else is a 500
GeneralError whose message is shown only when `DEBUG` is on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core import exceptions as django_exceptions
from django.db import IntegrityError
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework.settings import api_settings

from ...errors import (
    BadRequest,
    Conflict,
    FeathersError,
    Forbidden,
    GeneralError,
    NotAuthenticated,
    NotFound,
    TooManyRequests,
    Unavailable,
    errors,
)
from ..database_errors import RETRY_AFTER, is_duplicate, is_transient

__all__ = ["GENERAL_ERROR_MESSAGE", "retry_after", "to_feathers_error", "validation_message"]

GENERAL_ERROR_MESSAGE = "Internal server error"
UNAVAILABLE_MESSAGE = "The database is busy: send the request again in a moment"


def to_feathers_error(exc: BaseException) -> FeathersError:
    """Map any exception to the Feathers error a client should receive."""
    if isinstance(exc, FeathersError):
        return exc
    if isinstance(exc, drf_exceptions.ValidationError):
        return _validation_error(exc.detail)
    if isinstance(exc, django_exceptions.ValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        return _validation_error(_rename_non_field_errors(detail))
    if isinstance(exc, drf_exceptions.UnsupportedMediaType):
        if exc.detail == drf_exceptions.UnsupportedMediaType("").detail:
            return BadRequest("The body has no Content-Type: send JSON (application/json).")
        return BadRequest(f"{exc.detail} Send JSON (Content-Type: application/json).")
    if isinstance(exc, drf_exceptions.NotAuthenticated) and str(exc.detail) == str(
        exc.default_detail
    ):
        # No credentials at all: Feathers' `authenticate` hook words it this way.
        return NotAuthenticated("Not authenticated")
    if isinstance(exc, drf_exceptions.APIException):
        return _from_api_exception(exc)
    if isinstance(exc, Http404):
        return NotFound(str(exc) or "Not found")
    if isinstance(exc, django_exceptions.PermissionDenied):
        return Forbidden(str(exc) or "You do not have permission to perform this action.")
    if isinstance(exc, django_exceptions.RequestDataTooBig):
        return BadRequest(
            "The request body is too large: at most "
            f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes are allowed."
        )
    if isinstance(exc, django_exceptions.SuspiciousOperation):
        return BadRequest(str(exc) or "Bad request")
    if is_transient(exc):
        return Unavailable(_debug_message(exc, UNAVAILABLE_MESSAGE))
    if isinstance(exc, IntegrityError):
        # A constraint the serializer could not see: a race on a unique value is a conflict;
        # NOT NULL, CHECK and foreign keys refuse the data, as Feathers' database adapters say.
        if is_duplicate(exc):
            return Conflict(_debug_message(exc, "The data conflicts with an existing record"))
        return BadRequest(_debug_message(exc, "The data violates a constraint of the database"))
    return GeneralError(_debug_message(exc, GENERAL_ERROR_MESSAGE))


def validation_message(detail: Any) -> str:
    """A one-line, readable summary of DRF validation error details."""
    if isinstance(detail, Mapping):
        parts = []
        for field, value in detail.items():
            text = validation_message(value)
            if field == api_settings.NON_FIELD_ERRORS_KEY or not text:
                parts.append(text)
            elif isinstance(field, int):  # a ListSerializer's errors, by item index
                parts.append(f"item {field}: {text}")
            else:
                parts.append(f"{field}: {text}")
        return "; ".join(part for part in parts if part)
    if isinstance(detail, (list, tuple)):
        if detail and all(isinstance(item, Mapping) for item in detail):
            return "; ".join(
                f"item {index}: {validation_message(item)}"
                for index, item in enumerate(detail)
                if item
            )
        return " ".join(validation_message(item) for item in detail)
    return str(detail)


def _validation_error(detail: Any) -> BadRequest:
    message = validation_message(detail) or "Invalid data"
    detail = _plain(detail)
    if isinstance(detail, list) and not any(isinstance(item, Mapping) for item in detail):
        detail = {api_settings.NON_FIELD_ERRORS_KEY: detail}
    return BadRequest(message, errors=detail)


def _from_api_exception(exc: drf_exceptions.APIException) -> FeathersError:
    status_code = exc.status_code
    cls = errors.get(status_code)
    if cls is None:
        cls = BadRequest if 400 <= status_code < 500 else GeneralError
    detail = _plain(exc.detail)
    message = detail if isinstance(detail, str) else validation_message(detail)
    if isinstance(detail, (Mapping, list)):
        return cls(message, errors=detail)
    return cls(message)


def retry_after(exc: BaseException, error: FeathersError | None = None) -> int | None:
    """
    The seconds after which the call that raised `exc` may be sent again, or None: a
    throttle's wait (429), a transient database error's `RETRY_AFTER` (503). Every transport
    reads it here: REST as `Retry-After`, a socket as the error's `data.retryAfter`.
    """
    if is_transient(exc):
        return RETRY_AFTER
    if error is None:
        error = to_feathers_error(exc)
    if isinstance(error, TooManyRequests) or error.code == 429:
        wait = getattr(exc, "wait", None)
        if wait is not None:
            return max(math.ceil(wait), 0)
    return None


def _debug_message(exc: BaseException, default: str) -> str:
    if settings.DEBUG:
        return str(exc) or type(exc).__name__
    return default


def _plain(detail: Any) -> Any:
    """Turn DRF's ErrorDetail trees into plain strings, dicts and lists."""
    if isinstance(detail, Mapping):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, (list, tuple)):
        return [_plain(item) for item in detail]
    return str(detail)


def _rename_non_field_errors(detail: Any) -> Any:
    if isinstance(detail, Mapping) and django_exceptions.NON_FIELD_ERRORS in detail:
        detail = dict(detail)
        detail[api_settings.NON_FIELD_ERRORS_KEY] = detail.pop(django_exceptions.NON_FIELD_ERRORS)
    return detail

"""
The Feathers error classes, shared by the server and the client.

    raise NotFound(f"No record found for id '{id}'")
    error.to_json()   # {"name": "NotFound", "message": ..., "code": 404, "className": "not-found"}
    from_json(body, status=404)   # -> NotFound instance

Hierarchy:

    FeathersError
    ├── NotModified (304)        a read's `If-None-Match` matched (socket.io; REST answers 304)
    ├── BadRequest (400)
    ├── NotAuthenticated (401)
    ├── PaymentError (402)
    ├── Forbidden (403)
    ├── NotFound (404)
    ├── MethodNotAllowed (405)
    ├── NotAcceptable (406)
    ├── Timeout (408)            also raised by the client when a request times out
    ├── Conflict (409)
    ├── Gone (410)
    ├── LengthRequired (411)
    ├── PreconditionFailed (412) an `If-Match` that the record's current ETag does not match
    ├── Unprocessable (422)
    ├── PreconditionRequired (428)  a write without `If-Match` to a service that requires one
    ├── TooManyRequests (429)
    ├── GeneralError (500)
    ├── NotImplemented (501)
    ├── BadGateway (502)
    └── Unavailable (503)        also raised by the client when the server cannot be reached
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "BadGateway",
    "BadRequest",
    "Conflict",
    "FeathersError",
    "Forbidden",
    "GeneralError",
    "Gone",
    "LengthRequired",
    "MethodNotAllowed",
    "NotAcceptable",
    "NotAuthenticated",
    "NotFound",
    "NotImplemented",
    "NotModified",
    "PaymentError",
    "PreconditionFailed",
    "PreconditionRequired",
    "Timeout",
    "TooManyRequests",
    "Unavailable",
    "Unprocessable",
    "convert",
    "errors",
    "from_json",
]

DEFAULT_MESSAGE = "Error"


class FeathersError(Exception):
    """
    The root of every error django-feathers raises or receives.

    **Parameters:**

    * **message** - a human readable message (`"Error"` when not given).
    * **data** - extra JSON data sent with the error. When it is a mapping, its `errors`
      key becomes `errors` and its `message` key replaces the message, as in Feathers.
    * **errors** - per-field errors, usually `{field: [messages]}`.
    * **name** - overrides the class name on the wire (used for errors received from a
      server that sent a name we have no class for).
    * **response** - the HTTP library's response object, set by the client.
    """

    code: int = 500
    class_name: str = "general-error"

    def __init__(
        self,
        message: str | None = None,
        data: Any = None,
        *,
        errors: Any = None,
        name: str | None = None,
        code: int | None = None,
        class_name: str | None = None,
        response: Any = None,
    ) -> None:
        if isinstance(data, Mapping):
            data = dict(data)
            if "errors" in data:
                extracted = data.pop("errors")
                if errors is None:
                    errors = extracted
            if "message" in data:
                message = str(data.pop("message"))
        self.message: str = DEFAULT_MESSAGE if message is None else str(message)
        self.data: Any = data
        self.errors: Any = errors
        self.name: str = name or type(self).__name__
        if code is not None:
            self.code = code
        if class_name is not None:
            self.class_name = class_name
        self.response: Any = response
        super().__init__(self.message)

    @property
    def className(self) -> str:
        """The Feathers `className`, also available as `class_name`."""
        return self.class_name

    def to_json(self) -> dict[str, Any]:
        """Return the Feathers JSON body, keys in Feathers' order, `data`/`errors` when set."""
        body: dict[str, Any] = {
            "name": self.name,
            "message": self.message,
            "code": self.code,
            "className": self.class_name,
        }
        if self.data is not None:
            body["data"] = self.data
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        state = {
            "name": self.name,
            "code": self.code,
            "class_name": self.class_name,
            "errors": self.errors,
        }
        return (_rebuild, (type(self), self.message, self.data, state))


def _rebuild(cls: type[FeathersError], message: str, data: Any, state: dict) -> FeathersError:
    return cls(message, data, **state)


class NotModified(FeathersError):
    code = 304
    class_name = "not-modified"


class BadRequest(FeathersError):
    code = 400
    class_name = "bad-request"


class NotAuthenticated(FeathersError):
    code = 401
    class_name = "not-authenticated"


class PaymentError(FeathersError):
    code = 402
    class_name = "payment-error"


class Forbidden(FeathersError):
    code = 403
    class_name = "forbidden"


class NotFound(FeathersError):
    code = 404
    class_name = "not-found"


class MethodNotAllowed(FeathersError):
    code = 405
    class_name = "method-not-allowed"


class NotAcceptable(FeathersError):
    code = 406
    class_name = "not-acceptable"


class Timeout(FeathersError):
    code = 408
    class_name = "timeout"


class Conflict(FeathersError):
    code = 409
    class_name = "conflict"


class Gone(FeathersError):
    code = 410
    class_name = "gone"


class LengthRequired(FeathersError):
    code = 411
    class_name = "length-required"


class PreconditionFailed(FeathersError):
    code = 412
    class_name = "precondition-failed"


class Unprocessable(FeathersError):
    code = 422
    class_name = "unprocessable"


class PreconditionRequired(FeathersError):
    code = 428
    class_name = "precondition-required"


class TooManyRequests(FeathersError):
    code = 429
    class_name = "too-many-requests"


class GeneralError(FeathersError):
    code = 500
    class_name = "general-error"


class NotImplemented(FeathersError):  # shadows the builtin constant, as Feathers names it
    code = 501
    class_name = "not-implemented"


class BadGateway(FeathersError):
    code = 502
    class_name = "bad-gateway"


class Unavailable(FeathersError):
    code = 503
    class_name = "unavailable"


ERROR_CLASSES: tuple[type[FeathersError], ...] = (
    NotModified,
    BadRequest,
    NotAuthenticated,
    PaymentError,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    NotAcceptable,
    Timeout,
    Conflict,
    Gone,
    LengthRequired,
    PreconditionFailed,
    Unprocessable,
    PreconditionRequired,
    TooManyRequests,
    GeneralError,
    NotImplemented,
    BadGateway,
    Unavailable,
)

#: Every error class, by Feathers name and by status code (`errors["NotFound"]`, `errors[404]`).
errors: dict[str | int, type[FeathersError]] = {
    **{cls.__name__: cls for cls in ERROR_CLASSES},
    **{cls.code: cls for cls in ERROR_CLASSES},
}


def from_json(body: Any, status: int | None = None, *, response: Any = None) -> FeathersError:
    """
    Rebuild an error from a Feathers JSON body.

    The class is chosen by the body's `name`, then by `status` (or the body's `code`), then
    falls back to `FeathersError`. The server's `name`, `message`, `code`, `className`,
    `data` and `errors` are kept as they were sent.
    """
    if not isinstance(body, Mapping):
        cls = _class_for(None, status)
        message = body if isinstance(body, str) and body else DEFAULT_MESSAGE
        return cls(message, response=response)

    code = body.get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        code = status
    cls = _class_for(body.get("name"), code if code is not None else status)
    name = body.get("name") if isinstance(body.get("name"), str) else None
    class_name = body.get("className") if isinstance(body.get("className"), str) else None
    sent_message = body.get("message")
    error = cls(
        None if sent_message is None else str(sent_message),
        errors=body.get("errors"),
        name=name,
        code=code,
        class_name=class_name,
        response=response,
    )
    # `data` is kept as sent: a `message` or `errors` key inside it is not reinterpreted.
    error.data = body.get("data")
    return error


def convert(error: Any, status: int | None = None) -> Any:
    """
    Turn a Feathers JSON error body into an error instance; other values pass through.

    An existing exception is returned as it is, as Feathers' `convert` does.
    """
    if error is None or isinstance(error, BaseException):
        return error
    return from_json(error, status)


def _class_for(name: Any, code: Any) -> type[FeathersError]:
    if isinstance(name, str) and name in errors:
        return errors[name]
    if isinstance(code, int) and code in errors:
        return errors[code]
    return FeathersError

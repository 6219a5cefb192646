"""
The protocol core of the client: building requests and decoding responses, with no I/O.

    request = build_request("get", "http://api", "todos", {"query": {"$select": ["text"]}}, id=1)
    request.method, request.url    # "GET", "http://api/todos/1?%24select%5B0%5D=text"

Sending them, again as the retry rules say, is a flow (`_flow.call_flow`), which sync and async
transports run alike.
"""

from __future__ import annotations

import datetime
import decimal
import http
import json
import math
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from ..contract import (
    CUSTOM_METHOD_VERB,
    HTTP_VERBS,
    METHODS_REQUIRING_ID,
    METHODS_WITH_BODY,
    METHODS_WITH_ID,
    SERVICE_METHOD_HEADER,
)
from ..errors import (
    BadRequest,
    FeathersError,
    GeneralError,
    Timeout,
    Unavailable,
    errors,
    from_json,
)
from ..query.codec import stringify
from .conditional import tagged

__all__ = [
    "PARAMS_KEYS",
    "Request",
    "Response",
    "TransportFailure",
    "build_request",
    "decode",
    "encode_component",
    "encode_json",
    "error_from_response",
    "failure_error",
    "fill_route",
    "merge_headers",
]

#: The keys of `params` the client reads; the same names are keyword arguments of every method.
PARAMS_KEYS = ("query", "headers", "route", "connection")

# What JavaScript's encodeURIComponent leaves alone, besides letters and digits.
_COMPONENT_SAFE = "-_.!~*'()"


@dataclass(frozen=True)
class Request:
    """One HTTP request, described without sending it."""

    service_method: str
    method: str
    url: str
    headers: Mapping[str, str]
    body: bytes | None = None
    #: `params["connection"]`: keyword arguments for the HTTP library, for this request only.
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Response:
    """What a connection received; `headers` looks names up case-insensitively."""

    status: int
    reason: str
    headers: Mapping[str, str]
    content: bytes
    #: The HTTP library's own response object, kept on errors as `error.response`.
    raw: Any = None


class TransportFailure(Exception):
    """
    Raised by a transport when no answer arrived to `request` (a `Request`, or a socket call).

    `timed_out` tells a timeout from a connection that could not be made or was lost.
    """

    def __init__(self, request: Any, cause: BaseException, *, timed_out: bool = False) -> None:
        super().__init__(str(cause))
        self.request = request
        self.cause = cause
        self.timed_out = timed_out


def build_request(
    service_method: str,
    base: str,
    path: str,
    params: Mapping[str, Any] | None = None,
    *,
    id: Any = None,
    data: Any = None,
    default_headers: Mapping[str, Any] | None = None,
    auth_headers: Mapping[str, Any] | None = None,
) -> Request:
    """
    Describe the request for one service call, as CONTRACT section 8 prescribes.

    `base` is where the services live and `path` the service name (`:name` placeholders are
    filled from `params["route"]`). Raises `BadRequest` before anything is sent when a required
    id or route value is missing, and `TypeError` when `params` holds the wrong types.
    """
    params = params or {}
    query = params_mapping(params, "query")
    route = params_mapping(params, "route")
    connection = params_mapping(params, "connection")

    url = f"{base}/{fill_route(path, route)}"
    if service_method in METHODS_WITH_ID:
        _check_id(service_method, id)
        if id is not None:
            url += "/" + encode_component(id, what=f"The id for '{service_method}'")
    query_string = stringify(query)
    if query_string:
        url += "?" + query_string

    is_custom = service_method not in HTTP_VERBS
    has_body = is_custom or service_method in METHODS_WITH_BODY
    method_headers: dict[str, str] = {}
    if has_body:
        method_headers["Content-Type"] = "application/json"
    if is_custom:
        method_headers[SERVICE_METHOD_HEADER] = service_method
    headers = merge_headers(
        {"Accept": "application/json"},
        default_headers,
        method_headers,
        auth_headers,
        params_mapping(params, "headers"),
    )
    body = encode_json(data) if has_body and data is not None else None
    method = CUSTOM_METHOD_VERB if is_custom else HTTP_VERBS[service_method]
    return Request(service_method, method, url, headers, body, connection)


def fill_route(
    path: str,
    route: Mapping[str, Any],
    encode: Callable[[str, Any], str] | None = None,
) -> str:
    """
    Replace each `:name` segment of `path` by `route[name]`: percent-encoded for a URL, or as
    `encode(name, value)` writes it (a socket sends the path as it is, not in a URL).
    """
    segments = []
    for segment in path.split("/"):
        if segment.startswith(":") and len(segment) > 1:
            name = segment[1:]
            value = route.get(name)
            if value is None or value == "":
                raise BadRequest(
                    f"The route parameter '{name}' of '{path}' is required: "
                    f"pass it as params['route']['{name}']."
                )
            segment = (
                encode(name, value)
                if encode is not None
                else encode_component(value, what=f"The route parameter '{name}'")
            )
        segments.append(segment)
    return "/".join(segments)


def encode_component(value: Any, *, what: str = "The value") -> str:
    """Percent-encode `value` as one path segment, exactly as `encodeURIComponent` does."""
    try:
        return quote(_js_string(value), safe=_COMPONENT_SAFE)
    except UnicodeEncodeError as exc:
        raise BadRequest(f"{what} can not be sent in a URL: {exc.reason}.") from exc


def merge_headers(*layers: Mapping[str, Any] | None) -> dict[str, str]:
    """
    Merge header mappings, later ones winning, names compared case-insensitively.

    A value of `None` removes the header set by an earlier layer.
    """
    merged: dict[str, tuple[str, str]] = {}
    for layer in layers:
        for name, value in (layer or {}).items():
            if value is None:
                merged.pop(name.lower(), None)
            else:
                merged[name.lower()] = (name, _js_string(value))
    return dict(merged.values())


def encode_json(data: Any) -> bytes:
    """Encode a body as `JSON.stringify` would; raises `BadRequest` for what JSON can not hold."""
    try:
        text = json.dumps(
            data, default=_json_default, allow_nan=False, ensure_ascii=False, separators=(",", ":")
        )
    except (TypeError, ValueError) as exc:
        raise BadRequest(f"The data can not be sent as JSON: {exc}") from exc
    return text.encode("utf-8")


def decode(response: Response, request: Request) -> Any:
    """Return the result a successful response carries, or raise the error it describes."""
    if not 200 <= response.status < 300:
        raise error_from_response(response)
    if response.status == 204 or not response.content.strip():
        return None
    try:
        result = json.loads(response.content)
    except (ValueError, RecursionError) as exc:
        raise GeneralError(
            f"The response to {request.method} {request.url} "
            f"({_status_line(response)}) is not valid JSON.",
            response=response.raw,
        ) from exc
    headers = response.headers
    return tagged(result, headers.get("ETag"), headers.get("Last-Modified"))


def error_from_response(response: Response) -> FeathersError:
    """
    Rebuild the error an error response describes.

    A Feathers error body keeps the server's name, message, code, className, data and errors.
    Anything else becomes the class for the status, with the status line as its message and
    a JSON body (if any) as its `data`.
    """
    try:
        body = json.loads(response.content) if response.content.strip() else None
    except (ValueError, RecursionError):
        body = None
    if isinstance(body, Mapping) and ("name" in body or "message" in body):
        return from_json(body, response.status, response=response.raw)
    cls = errors.get(response.status, FeathersError)
    error = cls(_status_line(response), code=response.status, response=response.raw)
    error.data = body
    return error


def failure_error(failure: TransportFailure) -> FeathersError:
    """The Feathers error for a request that got no response: `Timeout` or `Unavailable`."""
    request = failure.request
    data = {"method": request.method, "url": request.url}
    if failure.timed_out:
        return Timeout(f"Timed out waiting for {request.method} {request.url}.", data)
    return Unavailable(f"No response from {request.method} {request.url}: {failure}", data)


def _check_id(service_method: str, id: Any) -> None:
    # None is "every match of the query" for patch and remove, and missing for get and update.
    empty = isinstance(id, str) and not id
    if empty or (id is None and service_method in METHODS_REQUIRING_ID):
        raise BadRequest(f"id for '{service_method}' is required")


def params_mapping(params: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """`params[key]`, a dict, or an empty one; a `TypeError` for another type."""
    value = params.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"params['{key}'] must be a dict, not {type(value).__name__}.")
    return value


def _status_line(response: Response) -> str:
    reason = response.reason
    if not reason:
        try:
            reason = http.HTTPStatus(response.status).phrase
        except ValueError:
            reason = ""
    return f"{response.status} {reason}".strip()


def _js_string(value: Any) -> str:
    """Write a value as JavaScript's `String(value)` would for its JSON twin."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
    return str(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return _iso_datetime(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _iso_datetime(value: datetime.datetime) -> str:
    # Aware datetimes go in UTC with a `Z`, as JavaScript's toISOString() writes them; like the
    # query codec, microseconds are kept when they are not whole milliseconds.
    if value.tzinfo is None or value.utcoffset() is None:
        return value.isoformat()
    value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    timespec = "milliseconds" if value.microsecond % 1000 == 0 else "microseconds"
    return value.isoformat(timespec=timespec) + "Z"

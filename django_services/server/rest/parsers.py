"""
The JSON body parser of services, strict where DRF's is lenient.

    class UploadService(Service):
        parser_classes = [JSONParser, MultiPartParser]   # JSON stays the default

A body must be a JSON object or array. Invalid JSON, a JSON scalar, `NaN`/`Infinity`, a number
out of range, text that is not in the declared charset, or nesting deeper than
`DJANGO_SERVICES["BODY_DEPTH_LIMIT"]` is a 400 BadRequest (never a 500, whatever the input).
The size limit is Django's `DATA_UPLOAD_MAX_MEMORY_SIZE`, enforced before parsing.

A body sent with `Transfer-Encoding: chunked` has no `Content-Length`, which DRF takes for "no
body". `read_chunked_body(request)` reads it in full when the server has decoded it (an ASGI
server, or a WSGI server that sets `wsgi.input_terminated`: gunicorn, uWSGI, mod_wsgi with
`WSGIChunkedRequest On`), and otherwise refuses it with 411 LengthRequired (Django's
`runserver`, wsgiref): it is never read as empty.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, QueryDict, RawPostDataException
from rest_framework import parsers
from rest_framework.request import Request

from ..._drf_compat import has_parsed_data, replace_body, request_body_stream, set_parsed_data
from ...conf import services_settings
from ...errors import BadRequest, LengthRequired
from .renderers import ServiceContentNegotiation

__all__ = ["MAX_INTEGER_DIGITS", "JSONParser", "json_depth", "read_chunked_body", "request_data"]

#: Bytes read at a time from a chunked body.
_CHUNK_SIZE = 64 * 1024

#: Longest integer accepted in a body (Python's own default limit for int()).
MAX_INTEGER_DIGITS = 4300


class JSONParser(parsers.JSONParser):
    """Parse `application/json` bodies into a dict or a list."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return the decoded body, or raise BadRequest saying what is wrong with it."""
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            text = _read_within_limit(stream).decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise BadRequest(f"The body is not valid {encoding} text.") from exc
        try:
            if text.startswith("\ufeff"):  # as `json.loads` refuses it
                raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
            data = _DECODER.decode(text)
        except RecursionError as exc:
            raise self._too_deep() from exc
        except ValueError as exc:
            raise BadRequest(f"Invalid JSON in the body: {exc}") from exc
        if not isinstance(data, (dict, list)):
            raise BadRequest(f"The body must be a JSON object or array, not {_json_type(data)}.")
        # The depth, text and numbers of the data are checked below the transports, for
        # every call alike (`inputs.check_input`).
        return data

    def depth_limit(self) -> int:
        """The deepest nesting accepted (`DJANGO_SERVICES["BODY_DEPTH_LIMIT"]`)."""
        return services_settings.BODY_DEPTH_LIMIT

    def _too_deep(self) -> BadRequest:
        return BadRequest(
            f"The body is nested too deeply: at most {self.depth_limit()} levels are allowed."
        )


def request_data(view: Any, request: Request) -> Any:
    """
    The body's data, as `request.data` gives it. A JSON body goes straight to the package's
    `JSONParser` when it is the parser DRF would choose (the first of the view's
    `parser_classes`, with the package's negotiation): DRF's way there selects it among the
    parsers, matches media types and looks for the files a JSON parser never returns.
    """
    http = request._request
    meta = http.META
    if (
        meta.get("CONTENT_TYPE") != JSONParser.media_type
        or meta.get("CONTENT_LENGTH") in (None, "", "0")
        or view.content_negotiation_class is not ServiceContentNegotiation
        or not view.parser_classes
        or view.parser_classes[0] is not JSONParser
        # Read already (a permission class reading `request.data`, say): the same data.
        or has_parsed_data(request)
    ):
        return request.data
    try:
        body = http.body
    except RawPostDataException:
        # Other code read the stream: as DRF's own parsing would.
        return request.data
    try:
        data = JSONParser().parse(io.BytesIO(body), JSONParser.media_type, request.parser_context)
    except Exception:
        # As DRF leaves a body that failed to parse: read as empty, not parsed again.
        set_parsed_data(request, QueryDict(encoding=http.encoding))
        raise
    set_parsed_data(request, data)
    return data


def read_chunked_body(request: HttpRequest) -> None:
    """
    Make a body sent with `Transfer-Encoding: chunked` readable with its length, or refuse it.

    When the server hands the whole body over, it is read (at most
    `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes, as Django reads any body) and given its length, so
    that DRF parses it. A WSGI server that leaves the chunks undecoded cannot be read safely:
    LengthRequired (411) asks for a `Content-Length`. Other requests are left as they are.
    """
    meta = request.META
    if "chunked" not in meta.get("HTTP_TRANSFER_ENCODING", "").lower():
        return
    if isinstance(request, ASGIRequest):
        stream: Any = request_body_stream(request)
    elif meta.get("wsgi.input_terminated"):
        stream = meta["wsgi.input"]  # decoded by the server, ending where the body ends
    else:
        raise LengthRequired(
            "This server cannot read a body sent with Transfer-Encoding: chunked: "
            "send it with a Content-Length header."
        )
    body = _read_all(stream, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    meta["CONTENT_LENGTH"] = str(len(body))
    replace_body(request, body)


def _read_all(stream: Any, limit: int | None) -> bytes:
    """Everything `stream` holds; RequestDataTooBig past `limit` bytes."""
    parts: list[bytes] = []
    size = 0
    while True:
        part = stream.read(_CHUNK_SIZE)
        if not part:
            return b"".join(parts)
        size += len(part)
        if limit is not None and size > limit:
            raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
        parts.append(part)


def _read_within_limit(stream: IO[bytes]) -> bytes:
    """
    The body, or RequestDataTooBig past `DATA_UPLOAD_MAX_MEMORY_SIZE`.

    DRF reads JSON bodies through `request.body`, which checks the size, only from 3.16.1 on:
    before that the parser gets the raw stream, so the size is checked here as well.
    """
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None:
        return stream.read()
    content = stream.read(limit + 1)
    if len(content) > limit:
        raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
    return content


def json_depth(value: Any, *, limit: int | None = None) -> int:
    """
    How deeply containers nest in a decoded JSON value (`{}` is 1, a scalar 0).

    Iterative, so it cannot overflow the stack; it stops counting once `limit` is exceeded.
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if limit is not None and deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:50]} is out of range")
    return value


def _bounded_int(text: str) -> int:
    # Checked here so the message does not depend on the interpreter's own digit limit.
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise ValueError(
            f"an integer has {digits} digits, more than the {MAX_INTEGER_DIGITS} allowed"
        )
    return int(text)


#: The strict decoder, made once as `json.loads` keeps its default one (it holds no state).
_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int
)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    return "a number"

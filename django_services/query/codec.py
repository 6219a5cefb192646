"""
Query strings as Node's `qs` reads and writes them, on the qs-codec package.

    parse("name[$in][0]=a&name[$in][1]=b")     # {"name": {"$in": ["a", "b"]}}
    stringify({"name": {"$in": ["a", "b"]}})   # "name%5B%24in%5D%5B0%5D=a&name%5B%24in%5D%5B1%5D=b"

`parse` follows Express's settings (brackets nest, repeated keys combine, `+` is a space) with
hard limits: beyond them it raises `BadRequest` naming the limit instead of silently changing
the shape of the query as `qs` does. `stringify` follows `qs.stringify` with its defaults
(indices, RFC 3986, `None` as `key=`, empty lists and dicts left out, dates in ISO 8601).

This module needs neither Django settings nor a database: the client uses it too.
"""

from __future__ import annotations

import datetime
import decimal
import math
import uuid
from collections.abc import Mapping
from typing import Any

import qs_codec

from ..errors import BadRequest

__all__ = [
    "MAX_DEPTH",
    "MAX_LIST_ITEMS",
    "MAX_PARAMETERS",
    "parse",
    "stringify",
]

MAX_DEPTH = 5
MAX_PARAMETERS = 1000
MAX_LIST_ITEMS = 1000

_ENCODE_OPTIONS = qs_codec.EncodeOptions()


def parse(
    query_string: str,
    *,
    depth: int = MAX_DEPTH,
    parameter_limit: int = MAX_PARAMETERS,
    list_limit: int = MAX_LIST_ITEMS,
) -> dict[str, Any]:
    """
    Parse a query string (without the leading `?`) into nested dicts, lists and strings.

    Raises `BadRequest` when the string nests deeper than `depth` brackets, holds more than
    `parameter_limit` parameters, or builds a list longer than `list_limit` items.
    """
    if not query_string:
        return {}
    options = qs_codec.DecodeOptions(
        depth=depth,
        strict_depth=True,
        parameter_limit=parameter_limit,
        list_limit=list_limit,
        raise_on_limit_exceeded=True,
        ignore_query_prefix=True,
    )
    try:
        return qs_codec.decode(query_string, options)
    except IndexError as exc:
        raise BadRequest(
            f"The query string is nested too deeply: at most {depth} levels of brackets "
            "are allowed."
        ) from exc
    except ValueError as exc:
        text = str(exc).lower()
        if "parameter" in text:
            raise BadRequest(
                f"The query string has too many parameters: at most {parameter_limit} are allowed."
            ) from exc
        if "list" in text:
            raise BadRequest(
                f"A list in the query string is too long: at most {list_limit} items are allowed."
            ) from exc
        raise BadRequest(f"The query string could not be parsed: {exc}") from exc


def stringify(query: Mapping[str, Any] | None) -> str:
    """Encode a query dict exactly as `qs.stringify(query)` does (no leading `?`)."""
    if not query:
        return ""
    return qs_codec.encode(_to_wire(query), _ENCODE_OPTIONS)


def _to_wire(value: Any) -> Any:
    """Turn Python values into the strings `qs` would write for their JavaScript twins."""
    if isinstance(value, Mapping):
        return {str(key): _to_wire(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_wire(item) for item in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, datetime.datetime):
        return _iso_datetime(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return [_to_wire(item) for item in sorted(value, key=str)]
    return str(value)


def _js_number(value: float) -> str:
    """Format a float as JavaScript's `String(number)` does."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        return f"{mantissa}e{sign}{int(exponent.lstrip('+-'))}"
    return text


def _iso_datetime(value: datetime.datetime) -> str:
    """
    ISO 8601 for a datetime; aware ones in UTC with `Z`, as JavaScript's `toISOString()`.

    Microseconds are kept when they are not whole milliseconds, so nothing is lost for a
    Python server.
    """
    if value.tzinfo is None or value.utcoffset() is None:
        return value.isoformat()
    value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    timespec = "milliseconds" if value.microsecond % 1000 == 0 else "microseconds"
    return value.isoformat(timespec=timespec) + "Z"

"""
Query strings as Node's `qs` reads and writes them.

    parse("name[$in][0]=a&name[$in][1]=b")     # {"name": {"$in": ["a", "b"]}}
    stringify({"name": {"$in": ["a", "b"]}})   # "name%5B%24in%5D%5B0%5D=a&name%5B%24in%5D%5B1%5D=b"

`parse` gives exactly what Express 4 gives (`qs` 6.16: brackets nest, repeated keys combine,
`+` is a space), with hard limits: beyond them it raises `BadRequest` naming the limit instead
of silently changing the shape of the query as `qs` does. Its steps live in `_qs.py`: qs-codec's
decoder departs from `qs` on several corners (lists of lists, stray brackets, empty values).
`stringify` is `qs.stringify` with its defaults, on qs-codec (indices, RFC 3986, `None` as
`key=`, empty lists and dicts left out, dates in ISO 8601, integer keys first).

This module needs neither Django settings nor a database: the client uses it too.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import math
from collections.abc import Mapping
from typing import Any

import qs_codec

from ..errors import BadRequest
from ._qs import (
    build,
    compact,
    key_segments,
    merge,
    object_key_order,
    plain_objects,
    split_pair,
    split_parts,
)

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

    The result is what Express 4 (`qs.parse(string, {allowPrototypes: true, arrayLimit: 1000})`)
    gives, as long as the string stays within the limits. Beyond them, where `qs` would quietly
    change the shape of the result, `BadRequest` is raised naming the limit: more than
    `parameter_limit` parameters, a key nested deeper than `depth` brackets, or a list longer
    than `list_limit` items (an index of `list_limit` or more counts as such a list).
    """
    if not query_string:
        return {}
    parts = split_parts(query_string)
    if len(parts) > parameter_limit:
        raise BadRequest(
            f"The query string has {len(parts)} parameters: at most {parameter_limit} are allowed."
        )
    values: dict[str, Any] = {}
    for part in parts:
        key, value = split_pair(part)
        if not key:
            # `qs` drops a part without a name (`=x`), whatever its value.
            continue
        if key not in values:
            values[key] = value
            continue
        # A repeated key collects its values, as `qs` combines duplicates.
        previous = values[key]
        values[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
        if len(values[key]) > list_limit:
            raise _list_too_long(list_limit, key)

    plain = plain_objects(values, depth)
    if plain is not None:
        return plain
    return _merged(values, depth, list_limit)


def _merged(values: dict[str, Any], depth: int, list_limit: int) -> dict[str, Any]:
    """Every key's object merged into one, as `qs` does (the general way)."""

    def check_length(length: int) -> None:
        if length > list_limit:
            raise _list_too_long(list_limit)

    result: dict[str, Any] = {}
    for key in sorted(values, key=object_key_order):
        result = merge(result, _built(key, values[key], depth, list_limit), check_length)
    return compact(result, check_length)


def _built(key: str, value: Any, depth: int, list_limit: int) -> Any:
    name, groups = key_segments(key)
    if len(groups) > depth:
        raise BadRequest(
            f"The query parameter '{key}' is nested too deeply: it has {len(groups)} levels "
            f"of brackets, the limit is {depth}."
        )

    def check_index(index: int) -> None:
        if index >= list_limit:
            raise BadRequest(
                f"The query parameter '{key}' uses the list index {index}: lists may have at "
                f"most {list_limit} items."
            )

    return build(name, groups, value, check_index)


def _list_too_long(list_limit: int, key: str | None = None) -> BadRequest:
    where = f"The query parameter '{key}' has" if key else "A list in the query string has"
    return BadRequest(f"{where} more than {list_limit} items: at most {list_limit} are allowed.")


def stringify(query: Mapping[str, Any] | None) -> str:
    """Encode a query dict exactly as `qs.stringify(query)` does (no leading `?`)."""
    if not query:
        return ""
    return qs_codec.encode(_to_wire(query), _ENCODE_OPTIONS)


def _to_wire(value: Any) -> Any:
    """Turn Python values into the strings `qs` would write for their JavaScript twins."""
    if isinstance(value, Mapping):
        return _js_object({str(key): _to_wire(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return [_to_wire(item) for item in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, enum.Enum):
        return _to_wire(value.value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, datetime.datetime):
        return _iso_datetime(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return [_to_wire(item) for item in sorted(value, key=str)]
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode()
    return str(value)


def _js_object(items: dict[str, Any]) -> dict[str, Any]:
    """Order keys as a JavaScript object does: integer keys first, ascending."""
    return {key: items[key] for key in sorted(items, key=object_key_order)}


def _js_number(value: float) -> str:
    """Format a float as JavaScript's `String(number)` does."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    # repr() gives the shortest digits that round-trip, as JavaScript does; only the layout
    # differs: `value` is 0.DIGITS x 10**point.
    _, digit_tuple, exponent = decimal.Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    point = len(digit_tuple) + int(exponent)
    text = _js_layout(digits, point)
    return "-" + text if value < 0 else text


def _js_layout(digits: str, point: int) -> str:
    count = len(digits)
    if count <= point <= 21:
        return digits + "0" * (point - count)
    if 0 < point <= 21:
        return f"{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return "0." + "0" * -point + digits
    exponent = point - 1
    mantissa = digits if count == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


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

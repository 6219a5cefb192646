"""
Query values: the shapes they take, and their conversion to Python by the model field they are
compared with.

    list_items({"0": "a", "1": "b"})     # ["a", "b"], as qs parses `a[0]=a&a[1]=b`
    is_container("text")                 # False

    convert_value(Person._meta.get_field("age"), "25", name="age")          # 25
    convert_value(Sample._meta.get_field("moment"), "2024-05-01T10:00:00Z", name="moment")
    convert_value(Person._meta.get_field("age"), "old", name="age")         # BadRequest

Query strings carry only strings, so each value is read as the field's type: integers (no
fraction), floats, decimals, booleans (`true`, `false`, `1`, `0`), dates, datetimes and times in
ISO 8601, durations, UUIDs; a foreign key converts by the field it points to. The empty string
is `None` for a nullable field that does not hold text. Values that are not strings (from Python
callers) go through the field's own `to_python()`. Dicts and strings, nearly every value, are
recognised as such without the `Mapping` ABC check.
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import dateparse, timezone

from ..errors import BadRequest

__all__ = [
    "convert_value",
    "is_container",
    "is_mapping",
    "is_text_field",
    "list_items",
    "resolve_field",
]

_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """`isinstance(value, Mapping)`, without the ABC check for the usual dicts and strings."""
    kind = type(value)
    return kind is dict or (kind is not str and isinstance(value, Mapping))


def is_container(value: Any) -> bool:
    """Whether `value` is a mapping, a list or a tuple (quickly for dicts and strings)."""
    kind = type(value)
    if kind is str:
        return False
    return kind is dict or kind is list or isinstance(value, (Mapping, list, tuple))


def list_items(value: Any) -> list[Any] | None:
    """A list, or an object whose keys are all list indexes (`{"0": a, "1": b}`), as a list."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if is_mapping(value) and value:
        keys = [str(key) for key in value]
        if all(_INDEX.fullmatch(key) for key in keys):
            # Canonical integers sort by length, then digits: no int() of a thousand digits.
            ordered = sorted(
                zip(keys, value.values(), strict=True), key=lambda item: (len(item[0]), item[0])
            )
            return [item for _, item in ordered]
    return None


_INTEGER_TYPES = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
    }
)
# Every database django-feathers runs on stores integers in at most 64 bits.
_INTEGER_RANGE = (-(2**63), 2**63 - 1)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}
_SHOWN_LENGTH = 100


def resolve_field(model_field: models.Field) -> models.Field:
    """The field whose values `model_field` holds: itself, or what a foreign key points to."""
    while model_field.is_relation:
        target_field = getattr(model_field, "target_field", None)
        if target_field is None:
            break
        model_field = target_field
    return model_field


def is_text_field(model_field: models.Field) -> bool:
    """Whether the field holds free text (`CharField`, `TextField` and their subclasses)."""
    return isinstance(resolve_field(model_field), (models.CharField, models.TextField))


def convert_value(model_field: models.Field, value: Any, *, name: str) -> Any:
    """
    Return `value` as a Python value for `model_field`.

    Raises `BadRequest` naming the field (`name`, as the query spells it) and the value when
    the value cannot be read as the field's type.
    """
    field = resolve_field(model_field)
    if value is None:
        return None
    if not isinstance(value, str):
        return _native(field, value, name)
    if "\x00" in value:
        raise _invalid(name, value, "it contains a NUL character")
    if is_text_field(field):
        return value
    if value == "":
        if model_field.null:
            return None
        raise _invalid(name, value, f"expected {_describe(field)}, not an empty value")
    reader = _READERS.get(field.get_internal_type())
    if reader is None:
        return _native(field, value, name)
    try:
        converted = reader(value)
    except OverflowError:
        raise _invalid(name, value, "it is out of range") from None
    except (ValueError, TypeError, ArithmeticError):
        converted = None
    if converted is None:
        raise _invalid(name, value, f"expected {_describe(field)}")
    return _checked_range(field, converted, name, value)


def _native(field: models.Field, value: Any, name: str) -> Any:
    integer_field = field.get_internal_type() in _INTEGER_TYPES
    if integer_field and isinstance(value, float) and not value.is_integer():
        raise _invalid(name, value, "expected an integer")
    try:
        converted = field.to_python(value)
    except (ValidationError, ValueError, TypeError, OverflowError, ArithmeticError):
        raise _invalid(name, value, f"expected {_describe(field)}") from None
    if isinstance(converted, datetime.datetime):
        try:
            converted = _with_current_time_zone_rules(converted)
        except OverflowError:
            raise _invalid(name, value, "it is out of range") from None
    return _checked_range(field, converted, name, value)


def _checked_range(field: models.Field, converted: Any, name: str, value: Any) -> Any:
    if isinstance(converted, int) and field.get_internal_type() in _INTEGER_TYPES:
        low, high = _INTEGER_RANGE
        if not low <= converted <= high:
            raise _invalid(name, value, "the number is out of range")
    if isinstance(converted, (float, decimal.Decimal)) and not math.isfinite(converted):
        raise _invalid(name, value, "expected a finite number")
    return converted


def _read_integer(value: str) -> int | None:
    return int(value) if _INTEGER.fullmatch(value) else None


def _read_float(value: str) -> float | None:
    return float(value) if _NUMBER.fullmatch(value) else None


def _read_decimal(value: str) -> decimal.Decimal | None:
    return decimal.Decimal(value) if _NUMBER.fullmatch(value) else None


def _read_boolean(value: str) -> bool | None:
    return _BOOLEANS.get(value.lower())


def _read_date(value: str) -> datetime.date | None:
    date = dateparse.parse_date(value)
    if date is None:
        # JavaScript clients send Date objects as full timestamps: keep the date as written.
        moment = dateparse.parse_datetime(value)
        date = moment.date() if moment is not None else None
    return date


def _read_datetime(value: str) -> datetime.datetime | None:
    moment = dateparse.parse_datetime(value)
    if moment is None:
        date = dateparse.parse_date(value)
        if date is None:
            return None
        moment = datetime.datetime.combine(date, datetime.time())
    return _with_current_time_zone_rules(moment)


def _read_time(value: str) -> datetime.time | None:
    try:
        moment = datetime.time.fromisoformat(value)
    except ValueError:
        return dateparse.parse_time(value)
    # Databases store times without a zone: an offset cannot be honoured.
    return None if moment.tzinfo is not None else moment


def _with_current_time_zone_rules(moment: datetime.datetime) -> datetime.datetime:
    """
    Make a datetime aware in UTC (`USE_TZ`; naive ones are read in the current time zone) or
    naive in the current time zone (not `USE_TZ`).

    UTC is what every database takes: PostgreSQL refuses offsets beyond 15:59 that Python
    allows. Raises OverflowError when the UTC time is outside the years 1 to 9999.
    """
    aware = timezone.is_aware(moment)
    if settings.USE_TZ:
        moment = moment if aware else timezone.make_aware(moment)
        return moment.astimezone(datetime.timezone.utc)
    if aware:
        return timezone.make_naive(moment)
    return moment


_READERS: dict[str, Callable[[str], Any]] = {
    **dict.fromkeys(_INTEGER_TYPES, _read_integer),
    "FloatField": _read_float,
    "DecimalField": _read_decimal,
    "BooleanField": _read_boolean,
    "DateField": _read_date,
    "DateTimeField": _read_datetime,
    "TimeField": _read_time,
    "DurationField": dateparse.parse_duration,
    "UUIDField": uuid.UUID,
}

_DESCRIPTIONS = {
    **dict.fromkeys(_INTEGER_TYPES, "an integer"),
    "FloatField": "a number",
    "DecimalField": "a decimal number",
    "BooleanField": "true, false, 1 or 0",
    "DateField": "a date (YYYY-MM-DD)",
    "DateTimeField": "a date and time in ISO 8601 (YYYY-MM-DDTHH:MM:SS[Z or offset])",
    "TimeField": "a time (HH:MM[:SS[.ffffff]]) without a time zone",
    "DurationField": "a duration ([DD] [HH:[MM:]]SS[.ffffff] or ISO 8601)",
    "UUIDField": "a UUID",
}


def _describe(field: models.Field) -> str:
    return _DESCRIPTIONS.get(field.get_internal_type(), f"a valid {field.get_internal_type()}")


def _invalid(name: str, value: Any, reason: str) -> BadRequest:
    shown = str(value)
    if len(shown) > _SHOWN_LENGTH:
        shown = shown[:_SHOWN_LENGTH] + "..."
    return BadRequest(f"Invalid value '{shown}' for field '{name}': {reason}.")

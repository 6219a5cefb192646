"""
The limits of a query: the page it asks for, and its size, checked before the database sees it.

    Paginate(default=10, max=50).limit(parse_int("100"))    # 50
    parse_int(" 12px")                                        # 12, as JavaScript's parseInt
    QueryLimits()                                   # the documented size limits
    QueryLimits.from_settings()                     # DJANGO_SERVICES["QUERY_OR_LIMIT"] and so on

`$limit` and `$skip` are read as Feathers reads them, against a service's pagination. LIMIT and
OFFSET go to the database as 64-bit integers: every value is capped at `MAX_ROWS`.

Databases refuse some large queries with errors of their own, and not all at the same size:
SQLite parses `a OR b OR ...` into a tree at most 1000 levels deep, and refuses `LIKE`
patterns over 50,000 bytes. The defaults stay well inside what every supported database runs,
so a query that passes here runs everywhere; one that does not is a 400 naming the limit and
its setting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ..errors import BadRequest

__all__ = ["MAX_ROWS", "Paginate", "QueryLimits", "parse_int"]

_LEADING_INTEGER = re.compile(r"[+-]?[0-9]+")
# What JavaScript's parseInt skips before the number.
_JS_WHITESPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"  # noqa: E501
# LIMIT and OFFSET must fit a 64-bit integer, also when added together.
MAX_ROWS = 2**62
MAX_ROWS_DIGITS = len(str(MAX_ROWS))


@dataclass(frozen=True)
class Paginate:
    """A service's pagination: the page size without `$limit`, and the largest page."""

    default: int | None = None
    max: int | None = None

    def __post_init__(self) -> None:
        for key in ("default", "max"):
            value = getattr(self, key)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise ImproperlyConfigured(
                    f"paginate['{key}'] must be a non-negative integer or None, not {value!r}."
                )

    @classmethod
    def of(cls, value: Paginate | Mapping[str, Any] | bool | None) -> Paginate | None:
        """Accept a `Paginate`, a `{"default": D, "max": M}` mapping, or `None`/`False`."""
        if value is None or value is False or isinstance(value, Paginate):
            return value or None
        if isinstance(value, Mapping):
            unknown = set(value) - {"default", "max"}
            if unknown:
                raise ImproperlyConfigured(
                    f"paginate accepts the keys 'default' and 'max', not {sorted(unknown)}."
                )
            return cls(default=value.get("default"), max=value.get("max"))
        raise ImproperlyConfigured(
            f"paginate must be None or a mapping like {{'default': 10, 'max': 50}}, not {value!r}."
        )

    def limit(self, requested: int | None) -> int | None:
        """The page size for a requested `$limit` (`None` when absent or invalid)."""
        if self.default is None and self.max is None:
            return requested
        # Feathers falls back to 0 rows without a default; the largest page is more useful.
        fallback = self.default if self.default is not None else self.max
        limit = requested if requested is not None else fallback
        if limit is None or self.max is None:
            return limit
        return min(limit, self.max)


def parse_int(value: Any) -> int | None:
    """JavaScript's `parseInt(value, 10)`, `None` standing for NaN."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return math.trunc(value) if math.isfinite(value) and abs(value) < 1e21 else None
    match = _LEADING_INTEGER.match(_js_string(value).lstrip(_JS_WHITESPACE))
    if not match:
        return None
    digits = match[0].lstrip("+-").lstrip("0")
    # Any number of more digits is past every limit (and int() refuses thousands of them).
    magnitude = int(digits or "0") if len(digits) <= MAX_ROWS_DIGITS else 10**MAX_ROWS_DIGITS
    return -magnitude if match[0].startswith("-") else magnitude


def _js_string(value: Any) -> str:
    """`String(value)` for the values a query holds."""
    if isinstance(value, (list, tuple)):
        return ",".join("" if item is None else _js_string(item) for item in value)
    if isinstance(value, Mapping):
        return "[object Object]"
    return str(value)


@dataclass(frozen=True)
class QueryLimits:
    """
    The most a query may hold.

    **Attributes:**

    * **or_branches** - entries in one `$or` (`QUERY_OR_LIMIT`).
    * **and_branches** - entries in one `$and` (`QUERY_AND_LIMIT`).
    * **in_values** - values in one `$in` or `$nin` (`QUERY_IN_LIMIT`).
    * **pattern_length** - characters in one `$like`, `$notlike` or `$ilike` pattern
      (`QUERY_LIKE_LENGTH_LIMIT`).
    """

    or_branches: int = 100
    and_branches: int = 100
    in_values: int = 1000
    pattern_length: int = 1000

    @classmethod
    def from_settings(cls) -> QueryLimits:
        """The limits of `DJANGO_SERVICES` (one object while the settings stay the same)."""
        from ..conf import services_settings

        values = (
            services_settings.QUERY_OR_LIMIT,
            services_settings.QUERY_AND_LIMIT,
            services_settings.QUERY_IN_LIMIT,
            services_settings.QUERY_LIKE_LENGTH_LIMIT,
        )
        cached = _from_settings.get(values)
        if cached is None:
            cached = cls(*values)
            _from_settings.clear()
            _from_settings[values] = cached
        return cached

    def check_group(self, name: str, size: int) -> None:
        """Raise `BadRequest` when a `$or` or `$and` (`name`) has too many entries."""
        limit, setting = (
            (self.or_branches, "QUERY_OR_LIMIT")
            if name == "$or"
            else (self.and_branches, "QUERY_AND_LIMIT")
        )
        if size > limit:
            raise BadRequest(f"{name} has {size} entries: at most {limit} are allowed ({setting}).")

    def check_list(self, operator: str, field: str, size: int) -> None:
        """Raise `BadRequest` when a `$in` or `$nin` of `field` has too many values."""
        if size > self.in_values:
            raise BadRequest(
                f"{operator} of field '{field}' has {size} values: at most {self.in_values} "
                "are allowed (QUERY_IN_LIMIT)."
            )

    def check_pattern(self, operator: str, field: str, pattern: str) -> None:
        """Raise `BadRequest` when a pattern for `field` is too long."""
        if len(pattern) > self.pattern_length:
            raise BadRequest(
                f"The {operator} pattern of field '{field}' has {len(pattern)} characters: at "
                f"most {self.pattern_length} are allowed (QUERY_LIKE_LENGTH_LIMIT)."
            )


_from_settings: dict[tuple[int, ...], QueryLimits] = {}

"""
Limits on the size of a query, checked before the database sees it.

    QueryLimits()                                   # the documented defaults
    QueryLimits.from_settings()                     # DJANGO_SERVICES["QUERY_OR_LIMIT"] and so on

Databases refuse some large queries with errors of their own, and not all at the same size:
SQLite parses `a OR b OR ...` into a tree at most 1000 levels deep, and refuses `LIKE`
patterns over 50,000 bytes. The defaults stay well inside what every supported database runs,
so a query that passes here runs everywhere; one that does not is a 400 naming the limit and
its setting.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BadRequest

__all__ = ["QueryLimits"]


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

"""
The SQL of the `LIKE` operators, as lookups that are not registered on any field.

    Person.objects.filter(Like(F("name"), "A%"))      # name LIKE 'A%' ESCAPE '\\'

`\\` is the escape character on every database. `ILike` ignores case: `ILIKE` on PostgreSQL,
upper-cased operands elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.db.models.lookups import Lookup

__all__ = ["ILike", "Like"]


class Like(Lookup):
    """`lhs LIKE rhs` with `\\` as the escape character (not registered on any field)."""

    lookup_name = "feathers_like"
    template = "{lhs} LIKE {rhs} ESCAPE '\\'"
    postgresql_template: str | None = None

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        return self._render(self.template, compiler, connection)

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        return self._render(self.postgresql_template or self.template, compiler, connection)

    def _render(self, template: str, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return template.format(lhs=lhs, rhs=rhs), (*lhs_params, *rhs_params)


class ILike(Like):
    """Case-insensitive `LIKE`: `ILIKE` on PostgreSQL, upper-cased operands elsewhere."""

    lookup_name = "feathers_ilike"
    template = "UPPER({lhs}) LIKE UPPER({rhs}) ESCAPE '\\'"
    postgresql_template = "{lhs} ILIKE {rhs} ESCAPE '\\'"

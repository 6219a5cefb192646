"""
A parsed Feathers query run through the Django ORM.

    query = parse_query(codec.parse(request.META["QUERY_STRING"]), fields=fields, paginate=page)
    total, rows = find(Person.objects.all(), query, paginated=True)
    Person.objects.filter(to_q(query))     # just the WHERE clause

Everything happens in the database: the conditions become a `Q` (each built by its operator,
see `operators.py`), `$sort` an `order_by()`,
`$select` an `only()`, `$limit`/`$skip` a slice. A find is one SELECT, plus one COUNT when
paginated.

`$like`, `$notlike` and `$ilike` are SQL `LIKE` with `%` and `_` wildcards and `\\` as the
escape character on every database. `$ilike` is `ILIKE` on PostgreSQL and compares upper-cased
text elsewhere. Mind that SQLite's `LIKE` ignores case for ASCII letters, so on SQLite `$like` is
case-insensitive for them, as with Feathers' knex adapter there.

Rows whose field is NULL match `$ne` and `$nin` (they are not equal to the value), as in
Feathers' memory adapter and MongoDB. Sorting puts NULL before every value, ascending.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import F, Q, QuerySet
from django.db.models.expressions import OrderBy

from .operators import operators
from .parse import And, Comparison, Condition, FeathersQuery, Or, QueryField

__all__ = ["apply_filters", "apply_select", "fetch_page", "find", "to_q"]


def to_q(query: FeathersQuery | Condition) -> Q:
    """The WHERE clause of a query (or of one of its conditions) as a `Q`."""
    condition = query.conditions if isinstance(query, FeathersQuery) else query
    if isinstance(condition, Comparison):
        return _comparison(condition)
    if isinstance(condition, Or):
        if not condition.conditions:
            return Q(pk__in=[])
        combined = Q()
        for child in condition.conditions:
            combined |= to_q(child)
        return combined
    if len(condition.conditions) == 1:
        return to_q(condition.conditions[0])
    combined = Q()
    for child in condition.conditions:
        combined &= to_q(child)
    return combined


def _comparison(condition: Comparison) -> Q:
    return operators[condition.operator].filter(condition.field, condition.value)


def apply_filters(queryset: QuerySet, query: FeathersQuery) -> QuerySet:
    """
    Filter by the query's conditions and order by its `$sort`.

    Rows equal on every `$sort` key come in primary-key order, in the direction of the last
    key (so that one index on the sorted column can serve the whole ordering), and pages never
    overlap. Without `$sort` the queryset's own ordering stays. A query without conditions
    and `$sort` returns `queryset` itself.
    """
    conditions = query.conditions
    if not query.sort and isinstance(conditions, And) and not conditions.conditions:
        # Every `get` by id: nothing to add, not even an empty `Q`.
        return queryset
    condition = to_q(query)
    if condition:
        if condition.connector == Q.AND and not condition.negated:
            # The conditions themselves: `filter(q)` would nest `q` one level deeper.
            queryset = queryset.filter(*condition.children)
        else:
            queryset = queryset.filter(condition)
    if not query.sort:
        return queryset
    ordering: list[Any] = []
    paths = []
    without_null = _paths_without_null(query.conditions)
    for name, direction in query.sort:
        query_field = query.fields.get(name)
        if query_field is None:
            raise ValueError(f"$sort names {name!r}, which is not among the query's fields.")
        paths.append(query_field.path)
        ordering.append(_order(query_field, direction, query_field.path in without_null))
    pk_name = queryset.model._meta.pk.name
    if not {"pk", pk_name, queryset.model._meta.pk.attname} & set(paths):
        ordering.append(pk_name if direction == 1 else f"-{pk_name}")
    return queryset.order_by(*ordering)


def _paths_without_null(condition: Condition) -> set[str]:
    """The paths that conditions every match must meet keep free of NULL."""
    if isinstance(condition, Comparison):
        operator = operators[condition.operator]
        return {condition.field.path} if operator.excludes_null(condition.value) else set()
    if isinstance(condition, Or):
        return set()
    paths: set[str] = set()
    for child in condition.conditions:
        paths |= _paths_without_null(child)
    return paths


def _order(query_field: QueryField, direction: int, without_null: bool) -> Any:
    path = query_field.path
    # Explicit NULL placement only where NULLs can occur: it keeps plain indexes usable.
    if not without_null and _nullable(query_field):
        expression = F(path)
        return (
            OrderBy(expression, nulls_first=True)
            if direction == 1
            else OrderBy(expression, descending=True, nulls_last=True)
        )
    return path if direction == 1 else f"-{path}"


def _nullable(query_field: QueryField) -> bool:
    # A path through a relation can meet NULL in a LEFT JOIN.
    return query_field.model_field.null or "__" in query_field.path


def apply_select(
    queryset: QuerySet, query: FeathersQuery, fields: Mapping[str, QueryField] | None = None
) -> QuerySet:
    """
    Load only the columns `$select` names (and the primary key).

    `fields` defaults to the fields the query was parsed with.

    The queryset stays as it is when a selected name is not a plain column of the model
    (a computed or related value): the serializer may need anything then. Relations that
    `select_related()` follows stay loaded.
    """
    if query.select is None:
        return queryset
    if fields is None:
        fields = query.fields
    concrete = {}
    for model_field in queryset.model._meta.concrete_fields:
        concrete[model_field.name] = model_field.name
        concrete[model_field.attname] = model_field.name
    columns = []
    for name in query.select:
        query_field = fields.get(name)
        if query_field is None or query_field.path not in concrete:
            return queryset
        columns.append(concrete[query_field.path])
    followed = _followed_relations(queryset)
    if followed is None:
        return queryset
    return queryset.only(*columns, *followed)


def _followed_relations(queryset: QuerySet) -> list[str] | None:
    """
    The forward relations `select_related()` follows: Django refuses to defer them. None when
    it follows a relation `only()` cannot keep (a reverse one-to-one).
    """
    requested = queryset.query.select_related
    if requested is False:
        return []
    relations = [field for field in queryset.model._meta.concrete_fields if field.is_relation]
    if requested is True:
        return [field.name for field in relations if not field.null]
    names = [field.name for field in relations if field.name in requested]
    return names if len(names) == len(requested) else None


def fetch_page(
    queryset: QuerySet,
    query: FeathersQuery,
    *,
    paginated: bool,
    count: Callable[[QuerySet], int] | None = None,
) -> tuple[int | None, list[Any]]:
    """
    Apply `$skip` and `$limit` to an already filtered queryset and fetch the rows.

    Returns `(total, rows)` when `paginated` (one SELECT and one COUNT at most; only the COUNT
    when the limit is 0, only the SELECT when the page shows the total), else `(None, rows)`
    in one SELECT (none when the limit is 0). `count` replaces `QuerySet.count` for the total
    (an estimate, say).
    """
    if count is None:
        count = _count
    skip, limit = query.skip, query.limit
    if limit == 0:
        return (count(queryset) if paginated else None), []
    if (skip or limit is not None) and not queryset.ordered:
        queryset = queryset.order_by("pk")
    page = queryset[skip:] if limit is None else queryset[skip : skip + limit]
    rows = list(page)
    if not paginated:
        return None, rows
    if rows and (limit is None or len(rows) < limit):
        return skip + len(rows), rows
    if not rows and skip == 0:
        return 0, rows
    return count(queryset), rows


def _count(queryset: QuerySet) -> int:
    return queryset.count()


def find(
    queryset: QuerySet, query: FeathersQuery, *, paginated: bool
) -> tuple[int | None, list[Any]]:
    """
    Run a whole find on an unfiltered queryset: conditions, `$sort`, `$select`, `$skip` and
    `$limit`. The result is as for `fetch_page`.
    """
    queryset = apply_select(apply_filters(queryset, query), query)
    return fetch_page(queryset, query, paginated=paginated)

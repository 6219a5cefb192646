"""
The Feathers query language, checked and converted for one service.

    fields = model_query_fields(Person)
    query = parse_query(codec.parse("age[$gt]=30&$sort[name]=1&$limit=5"), fields=fields)
    query.conditions, query.sort, query.limit   # And((Comparison(age $gt 30),)), (("name", 1),), 5

`parse_query` splits the filters (`$limit`, `$skip`, `$sort`, `$select`, `$or`, `$and`) from the
field conditions, checks every operator against the registry of `operators.py` (`$in`, `$nin`,
`$lt`, `$lte`, `$gt`, `$gte`, `$ne`, and `$like`, `$notlike`, `$ilike` or a project's own where
enabled) and converts every value by its model field. Whatever Feathers rejects is rejected with
Feathers' own message; beyond that, a field that does not exist or may not be queried, a value
that does not convert, and a query beyond the limits of `limits.py` are a `BadRequest` naming
them. `orm.py` turns the result into a queryset.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models

from ..errors import BadRequest
from .convert import convert_value, is_container, is_mapping, list_items
from .fields import QueryField
from .limits import MAX_ROWS, Paginate, QueryLimits, parse_int
from .operators import operators as registry

__all__ = [
    "FILTERS",
    "OPERATORS",
    "OPTIONAL_OPERATORS",
    "And",
    "Comparison",
    "Condition",
    "FeathersQuery",
    "Or",
    "Paginate",
    "QueryField",
    "model_query_fields",
    "parse_query",
]

# In the order Feathers reads them (which decides the error reported first).
FILTERS = ("$skip", "$sort", "$limit", "$select", "$or", "$and")
#: The built-in operators every service accepts, and those a service may enable.
OPERATORS = ("$in", "$nin", "$lt", "$lte", "$gt", "$gte", "$ne")
OPTIONAL_OPERATORS = ("$like", "$notlike", "$ilike")


@dataclass(frozen=True)
class Comparison:
    """`field <operator> value`, `value` converted for the field (a tuple for `$in`/`$nin`)."""

    field: QueryField
    operator: str
    value: Any


@dataclass(frozen=True)
class And:
    """Every condition holds (no conditions: always true)."""

    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Or:
    """At least one condition holds (no conditions: never true)."""

    conditions: tuple[Condition, ...] = ()


Condition = Comparison | And | Or


@dataclass(frozen=True)
class FeathersQuery:
    """
    A checked query, ready for `orm.py`.

    **Attributes:**

    * **conditions** - the field conditions, `$or` and `$and` included, as one `And`.
    * **limit** - the effective `$limit`, pagination applied; `None` for no limit.
    * **skip** - the effective `$skip` (0 or more).
    * **sort** - `((name, 1 | -1), ...)` in the order given.
    * **select** - the names to return, the id always among them; `None` for all.
    * **fields** - the fields the query was checked against, by name.
    """

    conditions: Condition = field(default_factory=And)
    limit: int | None = None
    skip: int = 0
    sort: tuple[tuple[str, int], ...] = ()
    select: tuple[str, ...] | None = None
    fields: Mapping[str, QueryField] = field(default_factory=dict, repr=False, compare=False)


def model_query_fields(
    model: type[models.Model],
    *,
    fields: Collection[str] | None = None,
    exclude: Collection[str] = (),
) -> dict[str, QueryField]:
    """
    The concrete fields of `model` as `QueryField`s named like the model fields.

    `fields` keeps only the names listed (in that order), `exclude` leaves names out; a name
    the model does not have raises `ImproperlyConfigured`.
    """
    by_name = {model_field.name: model_field for model_field in model._meta.concrete_fields}
    names = list(by_name) if fields is None else list(fields)
    missing = [name for name in (*names, *exclude) if name not in by_name]
    if missing:
        raise ImproperlyConfigured(
            f"{model.__name__} has no field(s) {', '.join(map(repr, missing))}; "
            f"its fields are {', '.join(by_name)}."
        )
    return {
        name: QueryField(name=name, path=name, model_field=by_name[name])
        for name in names
        if name not in exclude
    }


def parse_query(
    query: Mapping[str, Any] | None,
    *,
    fields: Mapping[str, QueryField],
    id_field: str = "id",
    selectable: Collection[str] | None = None,
    paginate: Paginate | Mapping[str, Any] | None = None,
    operators: Collection[str] = (),
    limits: QueryLimits | None = None,
) -> FeathersQuery:
    """
    Check `query` (as `codec.parse` returns it) and convert it for `orm.py`.

    **Parameters:**

    * **fields** - the fields a query may name; private fields are simply left out.
    * **id_field** - the name of the id, always added to `$select`.
    * **selectable** - the names `$select` may list (default: the keys of `fields`).
    * **paginate** - `Paginate` or `{"default": D, "max": M}`: caps and defaults `$limit`.
    * **operators** - optional operators to enable: `$like`, `$notlike`, `$ilike`, or any
      optional one a project registered (see `operators.py`).
    * **limits** - the `QueryLimits` (default: from the settings).

    Raises `BadRequest` for anything invalid, with Feathers' message where Feathers has one.
    """
    if query is None:
        query = {}
    if not is_mapping(query):
        raise BadRequest("The query must be an object of fields and filters.")
    enabled = _enabled_operators(operators)
    if not query:
        # Most calls (every `get` by id) have no query: nothing to check.
        pagination = Paginate.of(paginate)
        limit = pagination.limit(None) if pagination else None
        return FeathersQuery(limit=None if limit is None else min(limit, MAX_ROWS), fields=fields)
    _check_like_feathers(query, enabled | {"$or"})
    reader = _ConditionReader(fields, enabled, limits or QueryLimits.from_settings())
    requested_limit = parse_int(query.get("$limit"))
    if requested_limit is not None and requested_limit < 0:
        requested_limit = None
    pagination = Paginate.of(paginate)
    limit = pagination.limit(requested_limit) if pagination else requested_limit
    skip = parse_int(query.get("$skip"))
    return FeathersQuery(
        conditions=reader.read(query, top_level=True),
        limit=None if limit is None else min(limit, MAX_ROWS),
        skip=0 if skip is None or skip < 0 else min(skip, MAX_ROWS),
        sort=_read_sort(query.get("$sort"), fields),
        select=_read_select(query.get("$select"), fields, selectable, id_field),
        fields=fields,
    )


def _enabled_operators(operators: Collection[str]) -> frozenset[str]:
    if isinstance(operators, str):
        return registry.enabled((operators,))
    return registry.enabled(operators if type(operators) is tuple else tuple(operators))


def _check_like_feathers(query: Mapping[str, Any], allowed: Collection[str]) -> None:
    """Reject what Feathers' own query check rejects, first, with its messages."""
    sort = query.get("$sort")
    if is_mapping(sort):
        for value in sort.values():
            if is_container(value):
                _check_operators(value, allowed)
    select = query.get("$select")
    if select is not None and not isinstance(select, (list, tuple)):
        _check_operators(select, allowed)
    for name in ("$or", "$and"):
        if name in query:
            _check_operators(query[name], allowed)
    for key, value in query.items():
        if _is_operator(key):
            if key not in FILTERS:
                raise BadRequest(f"Invalid filter value {key}")
        else:
            _check_operators(value, allowed)


def _check_operators(value: Any, allowed: Collection[str]) -> None:
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_operators(item, allowed)
    elif is_mapping(value):
        for key, item in value.items():
            if isinstance(key, str) and key.startswith("$") and key not in allowed:
                raise _invalid_parameter(key, value)
            _check_operators(item, allowed)


def _invalid_parameter(key: str, offending: Mapping[str, Any]) -> BadRequest:
    error = BadRequest(f"Invalid query parameter {key}")
    # Set afterwards: a `message` key in the user's object must not replace the message.
    error.data = dict(offending)
    return error


class _ConditionReader:
    def __init__(
        self, fields: Mapping[str, QueryField], operators: frozenset[str], limits: QueryLimits
    ) -> None:
        self.fields = fields
        self.operators = operators
        self.limits = limits

    def read(self, query: Mapping[str, Any], *, top_level: bool = False) -> And:
        conditions: list[Condition] = []
        for key, value in query.items():
            key = str(key)
            if key == "$or":
                conditions.append(Or(self._group(key, value)))
            elif key == "$and" and top_level:
                conditions.append(And(self._group(key, value)))
            elif key.startswith("$"):
                if not top_level:
                    raise _invalid_parameter(key, query)
            else:
                conditions.extend(self._field_conditions(key, value))
        return And(tuple(conditions))

    def _group(self, name: str, value: Any) -> tuple[Condition, ...]:
        items = list_items(value)
        if items is None:
            raise BadRequest(
                f"{name} must be a list of queries, e.g. {name}[0][name]=Alice&{name}[1][age]=25."
            )
        self.limits.check_group(name, len(items))
        group: list[Condition] = []
        for item in items:
            if not is_mapping(item):
                raise BadRequest(
                    f"Each entry of {name} must be an object of field conditions, "
                    f"not '{_shown(item)}'."
                )
            group.append(self.read(item))
        return tuple(group)

    def _field_conditions(self, name: str, value: Any) -> Iterator[Comparison]:
        query_field = self.fields.get(name)
        if query_field is None:
            raise BadRequest(
                f"Invalid query field '{name}': it does not exist or cannot be queried."
            )
        if is_mapping(value) and any(_is_operator(key) for key in value):
            for operator, operand in value.items():
                if not _is_operator(operator):
                    raise BadRequest(
                        f"Invalid query for field '{name}': '{operator}' is not an operator "
                        f"(use {', '.join(sorted(self.operators))})."
                    )
                if operator not in self.operators:
                    raise _invalid_parameter(operator, value)
                if query_field.operators is not None and operator not in query_field.operators:
                    raise BadRequest(
                        f"Invalid query for field '{name}': {operator} is not allowed on it "
                        f"(use {', '.join(sorted(query_field.operators)) or 'plain values'})."
                    )
                converted = registry[operator].convert(query_field, operand, self.limits)
                yield Comparison(query_field, operator, converted)
        elif is_container(value):
            if is_mapping(value) and not value:
                return
            if list_items(value) is None:
                key = next(iter(value))
                raise BadRequest(
                    f"Invalid query for field '{name}': '{key}' is not an operator "
                    f"(use {', '.join(sorted(self.operators))})."
                )
            raise BadRequest(
                f"Invalid value for field '{name}': a list of values needs an operator, "
                f"e.g. {name}[$in][]=a&{name}[$in][]=b."
            )
        else:
            converted = convert_value(query_field.model_field, value, name=name)
            yield Comparison(query_field, "$eq", converted)


def _read_sort(value: Any, fields: Mapping[str, QueryField]) -> tuple[tuple[str, int], ...]:
    if value is None:
        return ()
    if not is_mapping(value):
        raise BadRequest("$sort must be an object of fields and directions, e.g. $sort[name]=1.")
    sort = []
    for name, direction in value.items():
        query_field = fields.get(name)
        if query_field is None:
            raise BadRequest(
                f"Invalid $sort field '{name}': it does not exist or cannot be queried."
            )
        if not query_field.sortable:
            raise BadRequest(f"Invalid $sort field '{name}': sorting by it is not allowed.")
        sort.append((name, _direction(name, direction)))
    return tuple(sort)


def _direction(name: str, direction: Any) -> int:
    if direction in (1, -1, "1", "-1") and not isinstance(direction, bool):
        return int(direction)
    raise BadRequest(
        f"Invalid $sort direction '{_shown(direction)}' for '{name}': "
        "use 1 (ascending) or -1 (descending)."
    )


def _read_select(
    value: Any,
    fields: Mapping[str, QueryField],
    selectable: Collection[str] | None,
    id_field: str,
) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list_items(value)
    if items is None:
        raise BadRequest("$select must be a list of field names, e.g. $select[]=name.")
    allowed = fields.keys() if selectable is None else selectable
    names: list[str] = []
    for item in items:
        if is_container(item):
            raise BadRequest("$select must be a list of field names, e.g. $select[]=name.")
        name = str(item)
        if name not in allowed and name != id_field:
            raise BadRequest(
                f"Invalid $select field '{name}': it does not exist or cannot be selected."
            )
        if name not in names:
            names.append(name)
    if id_field not in names:
        names.append(id_field)
    return tuple(names)


def _is_operator(key: Any) -> bool:
    return isinstance(key, str) and key.startswith("$")


def _shown(value: Any, length: int = 100) -> str:
    text = str(value)
    return text if len(text) <= length else text[:length] + "..."

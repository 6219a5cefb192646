"""
The Feathers query language, checked and converted for one service.

    fields = model_query_fields(Person)
    query = parse_query(codec.parse("age[$gt]=30&$sort[name]=1&$limit=5"), fields=fields)
    query.conditions, query.sort, query.limit   # And((Comparison(age $gt 30),)), (("name", 1),), 5

`parse_query` splits the filters (`$limit`, `$skip`, `$sort`, `$select`, `$or`, `$and`) from the
field conditions, checks every operator (`$in`, `$nin`, `$lt`, `$lte`, `$gt`, `$gte`, `$ne`, and
`$like`, `$notlike`, `$ilike` where enabled) and converts every value by its model field. Whatever
Feathers rejects is rejected with Feathers' own message; beyond that, a field that does not exist
or may not be queried, and a value that does not convert, are a `BadRequest` naming them.
`orm.py` turns the result into a queryset.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.core.exceptions import ImproperlyConfigured
from django.db import models

from ..errors import BadRequest
from .convert import convert_value, is_text_field

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
OPERATORS = ("$in", "$nin", "$lt", "$lte", "$gt", "$gte", "$ne")
OPTIONAL_OPERATORS = ("$like", "$notlike", "$ilike")

_LIST_OPERATORS = frozenset({"$in", "$nin"})
_PATTERN_OPERATORS = frozenset(OPTIONAL_OPERATORS)
_ORDER_OPERATORS = frozenset({"$lt", "$lte", "$gt", "$gte"})
_INDEX = re.compile(r"0|[1-9][0-9]*")
_LEADING_INTEGER = re.compile(r"[+-]?[0-9]+")
# What JavaScript's parseInt skips before the number.
_JS_WHITESPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"  # noqa: E501
# LIMIT and OFFSET must fit a 64-bit integer, also when added together.
_MAX_ROWS = 2**62
_MAX_ROWS_DIGITS = len(str(_MAX_ROWS))


@dataclass(frozen=True)
class QueryField:
    """
    A field a query may name.

    **Parameters:**

    * **name** - the name in queries and results, e.g. `"userId"`.
    * **path** - the ORM lookup path, e.g. `"user_id"` or `"owner__name"`.
    * **model_field** - the Django model field the path ends at; values convert by its type.
    * **sortable** - whether `$sort` may name the field.
    """

    name: str
    path: str
    model_field: models.Field
    sortable: bool = True


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
    def of(cls, value: Paginate | Mapping[str, Any] | Literal[False] | None) -> Paginate | None:
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
        if self.max is None or limit is None:
            return limit
        return min(limit, self.max)


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
) -> FeathersQuery:
    """
    Check `query` (as `codec.parse` returns it) and convert it for `orm.py`.

    **Parameters:**

    * **fields** - the fields a query may name; private fields are simply left out.
    * **id_field** - the name of the id, always added to `$select`.
    * **selectable** - the names `$select` may list (default: the keys of `fields`).
    * **paginate** - `Paginate` or `{"default": D, "max": M}`: caps and defaults `$limit`.
    * **operators** - optional operators to enable among `$like`, `$notlike`, `$ilike`.

    Raises `BadRequest` for anything invalid, with Feathers' message where Feathers has one.
    """
    if query is None:
        query = {}
    if not isinstance(query, Mapping):
        raise BadRequest("The query must be an object of fields and filters.")
    extra = _enabled_operators(operators)
    if not query:
        # Most calls (every `get` by id) have no query: nothing to check.
        pagination = Paginate.of(paginate)
        limit = pagination.limit(None) if pagination else None
        return FeathersQuery(limit=None if limit is None else min(limit, _MAX_ROWS), fields=fields)
    _check_like_feathers(query, (*OPERATORS, "$or", *extra))
    reader = _ConditionReader(fields, frozenset((*OPERATORS, *extra)))
    requested_limit = _parse_int(query.get("$limit"))
    if requested_limit is not None and requested_limit < 0:
        requested_limit = None
    pagination = Paginate.of(paginate)
    limit = pagination.limit(requested_limit) if pagination else requested_limit
    skip = _parse_int(query.get("$skip"))
    return FeathersQuery(
        conditions=reader.read(query, top_level=True),
        limit=None if limit is None else min(limit, _MAX_ROWS),
        skip=0 if skip is None or skip < 0 else min(skip, _MAX_ROWS),
        sort=_read_sort(query.get("$sort"), fields),
        select=_read_select(query.get("$select"), fields, selectable, id_field),
        fields=fields,
    )


def _enabled_operators(operators: Collection[str]) -> tuple[str, ...]:
    if isinstance(operators, str):
        operators = (operators,)
    unknown = [name for name in operators if name not in OPTIONAL_OPERATORS]
    if unknown:
        raise ImproperlyConfigured(
            f"Unknown query operator(s) {', '.join(map(repr, unknown))}: the operators that "
            f"can be enabled are {', '.join(OPTIONAL_OPERATORS)}."
        )
    return tuple(operators)


def _check_like_feathers(query: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    """Reject what Feathers' own query check rejects, first, with its messages."""
    sort = query.get("$sort")
    if isinstance(sort, Mapping):
        for value in sort.values():
            if isinstance(value, (Mapping, list, tuple)):
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


def _check_operators(value: Any, allowed: tuple[str, ...]) -> None:
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_operators(item, allowed)
    elif isinstance(value, Mapping):
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
    def __init__(self, fields: Mapping[str, QueryField], operators: frozenset[str]) -> None:
        self.fields = fields
        self.operators = operators

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
        items = _as_list(value)
        if items is None:
            raise BadRequest(
                f"{name} must be a list of queries, e.g. {name}[0][name]=Alice&{name}[1][age]=25."
            )
        group: list[Condition] = []
        for item in items:
            if not isinstance(item, Mapping):
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
        if isinstance(value, Mapping) and any(_is_operator(key) for key in value):
            for operator, operand in value.items():
                if not _is_operator(operator):
                    raise BadRequest(
                        f"Invalid query for field '{name}': '{operator}' is not an operator "
                        f"(use {', '.join(sorted(self.operators))})."
                    )
                if operator not in self.operators:
                    raise _invalid_parameter(operator, value)
                yield self._comparison(query_field, operator, operand)
        elif isinstance(value, (Mapping, list, tuple)):
            if isinstance(value, Mapping) and not value:
                return
            if _as_list(value) is None:
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
            yield Comparison(query_field, "$eq", self._convert(query_field, value))

    def _comparison(self, query_field: QueryField, operator: str, operand: Any) -> Comparison:
        name = query_field.name
        if operator in _LIST_OPERATORS:
            items = _as_list(operand)
            if items is None:
                items = [operand]
            for item in items:
                if isinstance(item, (Mapping, list, tuple)):
                    raise BadRequest(
                        f"Invalid value for field '{name}': {operator} takes a list of values, "
                        f"not nested objects or lists."
                    )
            return Comparison(
                query_field,
                operator,
                tuple(self._convert(query_field, item) for item in items),
            )
        if isinstance(operand, (Mapping, list, tuple)):
            raise BadRequest(
                f"Invalid value for field '{name}': {operator} takes a single value, "
                f"not an object or a list."
            )
        if operator in _PATTERN_OPERATORS:
            return Comparison(query_field, operator, _pattern(query_field, operator, operand))
        value = self._convert(query_field, operand)
        if value is None and operator in _ORDER_OPERATORS:
            raise BadRequest(
                f"Invalid value for field '{name}': {operator} needs a value, not null."
            )
        return Comparison(query_field, operator, value)

    @staticmethod
    def _convert(query_field: QueryField, value: Any) -> Any:
        return convert_value(query_field.model_field, value, name=query_field.name)


def _pattern(query_field: QueryField, operator: str, operand: Any) -> str:
    name = query_field.name
    if not is_text_field(query_field.model_field):
        raise BadRequest(
            f"Invalid query for field '{name}': {operator} applies to text fields only."
        )
    if not isinstance(operand, str):
        raise BadRequest(f"Invalid value for field '{name}': {operator} takes a text pattern.")
    if "\x00" in operand:
        raise BadRequest(f"Invalid value for field '{name}': the pattern contains a NUL character.")
    trailing_backslashes = len(operand) - len(operand.rstrip("\\"))
    if trailing_backslashes % 2:
        raise BadRequest(
            f"Invalid value for field '{name}': the {operator} pattern ends with the escape "
            "character '\\' (write '\\\\' for a backslash)."
        )
    return operand


def _read_sort(value: Any, fields: Mapping[str, QueryField]) -> tuple[tuple[str, int], ...]:
    if value is None:
        return ()
    if not isinstance(value, Mapping):
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
    items = [value] if isinstance(value, str) else _as_list(value)
    if items is None:
        raise BadRequest("$select must be a list of field names, e.g. $select[]=name.")
    allowed = fields.keys() if selectable is None else selectable
    names: list[str] = []
    for item in items:
        if isinstance(item, (Mapping, list, tuple)):
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


def _as_list(value: Any) -> list[Any] | None:
    """A list, or an object whose keys are all list indexes (`{"0": a, "1": b}`), as a list."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, Mapping) and value:
        keys = [str(key) for key in value]
        if all(_INDEX.fullmatch(key) for key in keys):
            # Canonical integers sort by length, then digits: no int() of a thousand digits.
            ordered = sorted(
                zip(keys, value.values(), strict=True), key=lambda item: (len(item[0]), item[0])
            )
            return [item for _, item in ordered]
    return None


def _is_operator(key: Any) -> bool:
    return isinstance(key, str) and key.startswith("$")


def _parse_int(value: Any) -> int | None:
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
    magnitude = int(digits or "0") if len(digits) <= _MAX_ROWS_DIGITS else 10**_MAX_ROWS_DIGITS
    return -magnitude if match[0].startswith("-") else magnitude


def _js_string(value: Any) -> str:
    """`String(value)` for the values a query holds."""
    if isinstance(value, (list, tuple)):
        return ",".join("" if item is None else _js_string(item) for item in value)
    if isinstance(value, Mapping):
        return "[object Object]"
    return str(value)


def _shown(value: Any, length: int = 100) -> str:
    text = str(value)
    return text if len(text) <= length else text[:length] + "..."

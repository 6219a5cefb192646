"""
Query operators: what `field[$op]=value` means, in a registry a project can extend.

    from django.db.models import Q
    from django_services.query import Operator, register_operator

    @register_operator
    class StartsWith(Operator):
        name = "$startswith"
        optional = True             # services enable it: operators = ["$startswith"]

        def filter(self, query_field, value):
            return Q(**{f"{query_field.path}__startswith": value})

An operator reads its operand (`convert`, which converts values by the field's type and raises
`BadRequest` for what it cannot take) and builds the `Q` of the condition (`filter`). The
built-in `$in`, `$nin`, `$lt`, `$lte`, `$gt`, `$gte`, `$ne`, and the optional `$like`,
`$notlike` and `$ilike`, are registered in the same way. Operators that are not `optional` are
accepted by every service; optional ones only where enabled (`operators` of a service, or the
`OPERATORS` setting). A query naming an operator that is not registered, or not enabled, is a
400 `Invalid query parameter $op`, as in Feathers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import F, Q
from django.db.models.lookups import Lookup

from ..errors import BadRequest
from .convert import convert_value, is_container, is_text_field, list_items, resolve_field
from .lookups import ILike, Like

if TYPE_CHECKING:
    from .fields import QueryField
    from .limits import QueryLimits

__all__ = [
    "EQUAL",
    "FunctionOperator",
    "ILike",
    "Like",
    "LookupOperator",
    "Operator",
    "OperatorRegistry",
    "operators",
    "register_operator",
]


class Operator:
    """
    One query operator.

    **Attributes:**

    * **name** - how queries write it, with the `$`: `"$startswith"`.
    * **optional** - whether a service must enable it before its queries may use it.
    * **many** - whether it takes a list of values (`$in`): `convert` then gets each item.
    * **null** - whether `null` is a value it compares with (else a 400 names the operator).

    Override `filter`; override `convert` to read the operand otherwise than as one value
    of the field's type.
    """

    name: str = ""
    optional: bool = False
    many: bool = False
    null: bool = True

    def convert(self, query_field: QueryField, value: Any, limits: QueryLimits) -> Any:
        """
        The operand as the condition needs it: the value converted by the field's type, or
        with `many` a tuple of the list's values, each converted.

        Raises `BadRequest` naming the field for an operand it cannot take.
        """
        if not self.many:
            if is_container(value):
                raise BadRequest(
                    f"Invalid value for field '{query_field.name}': {self.name} takes a single "
                    "value, not an object or a list."
                )
            return self._convert_value(query_field, value)
        items = list_items(value)
        if items is None:
            items = [value]
        limits.check_list(self.name, query_field.name, len(items))
        if any(is_container(item) for item in items):
            raise BadRequest(
                f"Invalid value for field '{query_field.name}': {self.name} takes a list of "
                "values, not nested objects or lists."
            )
        return tuple(self._convert_value(query_field, item) for item in items)

    def _convert_value(self, query_field: QueryField, value: Any) -> Any:
        converted = convert_value(query_field.model_field, value, name=query_field.name)
        if converted is None and not self.null:
            raise BadRequest(
                f"Invalid value for field '{query_field.name}': {self.name} needs a value, "
                "not null."
            )
        return converted

    def filter(self, query_field: QueryField, value: Any) -> Q:
        """The condition on `query_field` (its ORM path is `query_field.path`) as a `Q`."""
        raise NotImplementedError(f"{type(self).__name__} must define filter().")

    def excludes_null(self, value: Any) -> bool:
        """
        Whether no row whose field is NULL can match (False unless an operator knows better).

        A `$sort` on a field a condition already keeps free of NULL needs no NULL placement,
        so that a plain index on the column serves the ORDER BY.
        """
        return False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class LookupOperator(Operator):
    """
    An operator that is one Django lookup: `LookupOperator("$startswith", "startswith")`.

    Integer comparisons with a value beyond what any database's column can hold still
    exclude NULL: Django drops such a comparison from the WHERE clause as always true.
    """

    # The end of the column's range beyond which Django finds the lookup always true.
    _DROPPED_BEYOND = {"gt": "min", "gte": "min", "lt": "max", "lte": "max"}

    def __init__(
        self, name: str, lookup: str, *, optional: bool = False, null: bool = True
    ) -> None:
        self.name, self.lookup, self.optional, self.null = name, lookup, optional, null

    def excludes_null(self, value: Any) -> bool:
        # An SQL comparison with NULL is never true; `isnull` is the one lookup that is.
        return self.lookup != "isnull" and value is not None

    def filter(self, query_field: QueryField, value: Any) -> Q:
        condition = Q(**{f"{query_field.path}__{self.lookup}": value})
        if _beyond_column_range(query_field, self.lookup, value):
            condition &= Q(**{f"{query_field.path}__isnull": False})
        return condition


class FunctionOperator(Operator):
    """An operator made of a function `(query_field, value) -> Q` (see `register_operator`)."""

    def __init__(
        self,
        name: str,
        function: Callable[[QueryField, Any], Q],
        *,
        optional: bool = False,
        null: bool = True,
        many: bool = False,
    ) -> None:
        self.name, self.function, self.optional, self.null = name, function, optional, null
        self.many = many
        self.__doc__ = function.__doc__

    def filter(self, query_field: QueryField, value: Any) -> Q:
        return self.function(query_field, value)


class _Equal(Operator):
    name = "$eq"

    def excludes_null(self, value: Any) -> bool:
        return value is not None

    def filter(self, query_field: QueryField, value: Any) -> Q:
        path = query_field.path
        return Q(**{f"{path}__isnull": True}) if value is None else Q(**{path: value})


class _NotEqual(Operator):
    name = "$ne"

    def filter(self, query_field: QueryField, value: Any) -> Q:
        path = query_field.path
        # Django's negation keeps NULL rows (`NOT (x = v AND x IS NOT NULL)`) on nullable paths.
        return Q(**{f"{path}__isnull": False}) if value is None else ~Q(**{path: value})


class _Membership(Operator):
    many = True

    def __init__(self, name: str, *, negated: bool) -> None:
        self.name, self.negated = name, negated

    def excludes_null(self, value: Any) -> bool:
        return not self.negated and None not in value

    def filter(self, query_field: QueryField, value: Any) -> Q:
        path = query_field.path
        present = [item for item in value if item is not None]
        if len(present) == len(value):
            matches = Q(**{f"{path}__in": present})
        else:
            null = Q(**{f"{path}__isnull": True})
            matches = null | Q(**{f"{path}__in": present}) if present else null
        return ~matches if self.negated else matches


class _Pattern(Operator):
    optional = True

    def __init__(self, name: str, lookup: type[Lookup], *, negated: bool = False) -> None:
        self.name, self.lookup, self.negated = name, lookup, negated

    def convert(self, query_field: QueryField, value: Any, limits: QueryLimits) -> Any:
        field_name = query_field.name
        if not is_text_field(query_field.model_field):
            raise BadRequest(
                f"Invalid query for field '{field_name}': {self.name} applies to text fields only."
            )
        if not isinstance(value, str):
            raise BadRequest(
                f"Invalid value for field '{field_name}': {self.name} takes a text pattern."
            )
        limits.check_pattern(self.name, field_name, value)
        if "\x00" in value:
            raise BadRequest(
                f"Invalid value for field '{field_name}': the pattern contains a NUL character."
            )
        if (len(value) - len(value.rstrip("\\"))) % 2:
            raise BadRequest(
                f"Invalid value for field '{field_name}': the {self.name} pattern ends with the "
                "escape character '\\' (write '\\\\' for a backslash)."
            )
        return value

    def excludes_null(self, value: Any) -> bool:
        return not self.negated

    def filter(self, query_field: QueryField, value: Any) -> Q:
        condition = Q(self.lookup(F(query_field.path), value))
        return ~condition if self.negated else condition


class OperatorRegistry(Mapping[str, Operator]):
    """The operators queries may use, by name (a read-only mapping, plus `register`)."""

    def __init__(self) -> None:
        self._operators: dict[str, Operator] = {}
        self._standard: frozenset[str] = frozenset()
        self._optional: tuple[str, ...] = ()
        self._enabled: dict[tuple[str, ...], frozenset[str]] = {}

    def register(self, operator: Operator | type[Operator]) -> Any:
        """
        Add an operator (an `Operator` instance or subclass), replacing one of the same name.

        Returns its argument, so that it decorates a class.
        """
        instance = operator() if isinstance(operator, type) else operator
        if not isinstance(instance, Operator):
            raise TypeError(f"{operator!r} is not an Operator.")
        if not (isinstance(instance.name, str) and instance.name.startswith("$")):
            raise ValueError(f"An operator's name starts with '$', not {instance.name!r}.")
        if instance.name == "$or" or instance.name == "$and" or instance.name == EQUAL.name:
            raise ValueError(f"{instance.name} is part of the query language.")
        self._operators[instance.name] = instance
        self._changed()
        return operator

    def unregister(self, name: str) -> None:
        """Remove the operator `name` (a `KeyError` when there is none)."""
        del self._operators[name]
        self._changed()

    def standard(self) -> frozenset[str]:
        """The names every service accepts (the operators that are not optional)."""
        return self._standard

    def optional(self) -> tuple[str, ...]:
        """The names a service may enable, in the order registered."""
        return self._optional

    def enabled(self, names: tuple[str, ...]) -> frozenset[str]:
        """
        The standard operators and the optional `names` (cached: one dict lookup a call).

        Raises `ImproperlyConfigured` for a name that is not an optional operator.
        """
        enabled = self._enabled.get(names)
        if enabled is None:
            unknown = [name for name in names if name not in self._optional]
            if unknown:
                raise ImproperlyConfigured(
                    f"Unknown query operator(s) {', '.join(map(repr, unknown))}: the operators "
                    f"that can be enabled are {', '.join(self._optional)}."
                )
            enabled = self._standard | frozenset(names)
            self._enabled[names] = enabled
        return enabled

    def _changed(self) -> None:
        self._optional = tuple(
            name for name, operator in self._operators.items() if operator.optional
        )
        self._standard = frozenset(
            name for name, operator in self._operators.items() if not operator.optional
        )
        self._enabled = {}

    def __getitem__(self, name: str) -> Operator:
        return EQUAL if name == EQUAL.name else self._operators[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._operators)

    def __len__(self) -> int:
        return len(self._operators)


def register_operator(
    operator: Operator | type[Operator] | str,
    *,
    optional: bool = False,
    null: bool = True,
    many: bool = False,
) -> Any:
    """
    Register a query operator in `operators`.

    As a class decorator, or called with an instance, it registers an `Operator`. Given a name,
    it decorates a function `(query_field, value) -> Q` instead, the value converted by the
    field's type:

        @register_operator("$startswith", optional=True)
        def starts_with(query_field, value):
            return Q(**{f"{query_field.path}__startswith": value})
    """
    if isinstance(operator, str):
        name = operator

        def decorate(function: Callable[[QueryField, Any], Q]) -> Callable[[QueryField, Any], Q]:
            operators.register(
                FunctionOperator(name, function, optional=optional, null=null, many=many)
            )
            return function

        return decorate
    return operators.register(operator)


def _beyond_column_range(query_field: QueryField, lookup: str, value: Any) -> bool:
    bound = LookupOperator._DROPPED_BEYOND.get(lookup)
    if bound is None or not isinstance(value, int) or isinstance(value, bool):
        return False
    if not (query_field.model_field.null or "__" in query_field.path):
        return False
    from django.db.backends.base.operations import BaseDatabaseOperations

    internal_type = resolve_field(query_field.model_field).get_internal_type()
    # The base ranges are the narrowest of Django's backends (SQLite's are 64-bit).
    ranges = BaseDatabaseOperations.integer_field_ranges
    if internal_type not in ranges:
        return False
    low, high = ranges[internal_type]
    return value < low if bound == "min" else value > high


EQUAL: Operator = _Equal()

#: The registry queries are checked against.
operators = OperatorRegistry()
for _operator in (
    _Membership("$in", negated=False),
    _Membership("$nin", negated=True),
    LookupOperator("$lt", "lt", null=False),
    LookupOperator("$lte", "lte", null=False),
    LookupOperator("$gt", "gt", null=False),
    LookupOperator("$gte", "gte", null=False),
    _NotEqual(),
    _Pattern("$like", Like),
    _Pattern("$notlike", Like, negated=True),
    _Pattern("$ilike", ILike),
):
    operators.register(_operator)
del _operator

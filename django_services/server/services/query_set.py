"""
`QueryDeclaration`: what the queries of a service may do, declared in one class.

    class MessageQuery(QueryDeclaration):
        fields = {"text": ["$like", "$ne"], "userId": None, "read": None, "created": None}
        sort_fields = ["created"]
        private_fields = ["secret"]
        operators = ["$like"]
        id_field = "uuid"
        paginate = {"default": 10, "max": 50}

    class MessageService(ModelService):
        query_class = MessageQuery

The shape of django-filter's `FilterSet`: `fields` names the queryable fields, as a list, or as
a mapping of each field to the operators it takes (`None`: every operator the service accepts).
The six options can also be set on the service itself (`query_fields`, `sort_fields`,
`private_fields`, `operators`, `id_field`, `paginate`), a shorthand that builds a
`QueryDeclaration` of them (`QueryDeclaration.of_service`).

The declaration checks a query against the fields a service's serializer shows (`parse`), and
is what the OpenAPI generator reads, beside the operator registry (`enabled_operators`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ...conf import services_settings
from ...query.operators import operators as registry
from ...query.parse import FeathersQuery, Paginate, QueryField, parse_query

__all__ = ["ESTIMATE_TOTAL_ABOVE", "QUERY_KINDS", "QueryDeclaration"]

#: The `paginate` key that lets PostgreSQL's planner estimate the total of large finds.
ESTIMATE_TOTAL_ABOVE = "estimate_total_above"

#: The query each kind of call reads: `find` pages, `multi` (patch and remove without an id)
#: ignores `$limit`, `id` (get, update, patch, remove) filters, `create` reads `$select` only.
QUERY_KINDS = ("find", "multi", "id", "create")

#: The shorthand options of a service, by the declaration option each one sets.
SHORTHAND = {
    "fields": "query_fields",
    "sort_fields": "sort_fields",
    "private_fields": "private_fields",
    "operators": "operators",
    "id_field": "id_field",
    "paginate": "paginate",
}


class QueryDeclaration:
    """
    The query language of a service: fields, sorting, private fields, operators, paging.

    **Options** (class attributes, or keyword arguments):

    * **fields** - the API names queries may filter on (the id is always allowed), or a
      mapping of those names to the operators each takes (`None`: all the service accepts).
      Default: every readable serializer field that maps to a model column.
    * **sort_fields** - the names `$sort` accepts, among the query fields. Default: all.
    * **private_fields** - serializer fields never sent and never queryable; they stay
      writable (a password, say).
    * **operators** - the optional operators enabled: `"$like"`, `"$notlike"`, `"$ilike"`, or a
      project's own (`register_operator`). `None`: `DJANGO_SERVICES["OPERATORS"]`.
    * **id_field** - the API name of the field ids are looked up by; it must be unique.
      Default: the primary key.
    * **paginate** - `{"default": D, "max": M}`, or `False` for plain lists. `None`:
      `DJANGO_SERVICES["PAGINATE"]`. `"estimate_total_above": N` lets PostgreSQL's planner
      estimate the `total` of a find it expects to match more than N records.
    """

    fields: Collection[str] | Mapping[str, Collection[str] | None] | None = None
    sort_fields: Collection[str] | None = None
    private_fields: Collection[str] = ()
    operators: Collection[str] | None = None
    id_field: str | None = None
    paginate: Mapping[str, Any] | bool | None = None
    _read_paginate: tuple[Any, Paginate | None] | None = None

    def __init__(self, **options: Any) -> None:
        for name, value in options.items():
            if name not in SHORTHAND:
                raise TypeError(f"QueryDeclaration has no option {name!r}.")
            setattr(self, name, value)

    @classmethod
    def of_service(cls, service: Any) -> QueryDeclaration:
        """The declaration a service's shorthand options make (`query_fields`, ...)."""
        return cls(
            **{
                option: getattr(service, name)
                for option, name in SHORTHAND.items()
                if hasattr(service, name)
            }
        )

    def __repr__(self) -> str:
        options = ", ".join(f"{name}={getattr(self, name)!r}" for name in SHORTHAND)
        return f"{type(self).__name__}({options})"

    # Options --------------------------------------------------------------------------------

    def get_field_names(self) -> Collection[str] | None:
        """The names of the queryable fields, or None for every column field."""
        return None if self.fields is None else tuple(self.fields)

    def get_field_operators(self, name: str) -> frozenset[str] | None:
        """The operators the field `name` takes (None: every one the service accepts)."""
        if not isinstance(self.fields, Mapping):
            return None
        allowed = self.fields.get(name)
        return None if allowed is None else frozenset(allowed)

    def get_operators(self) -> Collection[str]:
        """The optional operators enabled."""
        return services_settings.OPERATORS if self.operators is None else self.operators

    def enabled_operators(self) -> tuple[str, ...]:
        """
        Every operator queries may use, in the registry's order: the standard ones and the
        optional ones enabled (`ImproperlyConfigured` for an unknown one).
        """
        operators = self.get_operators()
        names = (operators,) if isinstance(operators, str) else tuple(operators)
        enabled = registry.enabled(names)
        return tuple(name for name in registry if name in enabled)

    def get_paginate(self) -> Paginate | None:
        """The `paginate` option, or `DJANGO_SERVICES["PAGINATE"]`; None when off."""
        value = self._paginate_option()
        # Read by every find: worked out once while the option is the same object.
        read = self._read_paginate
        if read is not None and read[0] is value:
            return read[1]
        option = value
        if isinstance(value, Mapping) and ESTIMATE_TOTAL_ABOVE in value:
            value = {key: item for key, item in value.items() if key != ESTIMATE_TOTAL_ABOVE}
        paginate = Paginate.of(value)
        self._read_paginate = (option, paginate)
        return paginate

    def get_estimate_total_above(self) -> int | None:
        """
        `paginate["estimate_total_above"]`: on PostgreSQL, a find the planner expects to match
        more records than this answers the planner's estimate as `total`. None: always counted.
        """
        value = self._paginate_option()
        if not isinstance(value, Mapping):
            return None
        threshold = value.get(ESTIMATE_TOTAL_ABOVE)
        if threshold is not None and (
            isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0
        ):
            raise ImproperlyConfigured(
                f"paginate['{ESTIMATE_TOTAL_ABOVE}'] must be a non-negative integer or None, "
                f"not {threshold!r}."
            )
        return threshold

    def _paginate_option(self) -> Any:
        return services_settings.PAGINATE if self.paginate is None else self.paginate

    def check(self, owner: str) -> None:
        """Raise ImproperlyConfigured for an option that cannot work (`owner` names it)."""
        self.get_paginate()
        self.get_estimate_total_above()
        enabled = set(self.enabled_operators())
        if isinstance(self.fields, Mapping):
            for name, allowed in self.fields.items():
                unknown = sorted(set(allowed or ()) - enabled)
                if isinstance(allowed, str) or unknown:
                    raise ImproperlyConfigured(
                        f"{owner}: the operators of query field {name!r} must be a list of "
                        f"operators the service accepts ({', '.join(sorted(enabled))}); "
                        f"got {allowed!r}."
                    )

    # Queries --------------------------------------------------------------------------------

    def restrict(self, fields: dict[str, QueryField]) -> dict[str, QueryField]:
        """`fields` with the operators each one takes, as `fields` declares them."""
        if not isinstance(self.fields, Mapping):
            return fields
        for name, field in fields.items():
            allowed = self.get_field_operators(name)
            if allowed is not None:
                fields[name] = dataclasses.replace(field, operators=allowed)
        return fields

    def parse(
        self,
        query: Mapping[str, Any] | None,
        *,
        fields: Mapping[str, QueryField],
        id_field: str,
        selectable: Collection[str],
        kind: str = "find",
    ) -> FeathersQuery:
        """
        The checked query of a call of `kind` (see `QUERY_KINDS`), against the fields a
        service shows: `find` pages by `paginate`, `multi` drops `$limit`, `create` reads
        `$select` only.
        """
        query = query or {}
        if kind == "create":
            query = {"$select": query["$select"]} if "$select" in query else {}
        parsed = parse_query(
            query,
            fields=fields,
            id_field=id_field,
            selectable=selectable,
            paginate=self.get_paginate() if kind == "find" else None,
            operators=self.get_operators(),
        )
        if kind == "multi":
            parsed = dataclasses.replace(parsed, limit=None)
        return parsed

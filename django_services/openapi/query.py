"""
The Feathers query language of a service, as OpenAPI parameters and as a JSON schema.

    fields = QueryFields.of(service, record_schema)   # its query declaration and fields
    fields.parameters("find")      # $limit, $skip, $sort (deepObject), $select[], field[$op]...
    fields.schema()                # {"type": "object", "properties": {"$limit": ..., "text": ...}}

Each queryable field is a parameter of its own (`complete=true`), and so is each operator
allowed on it (`createdAt[$gte]=...`, `id[$in][]=1&id[$in][]=2`), from the operator registry: the
standard ones, a project's own (`register_operator`) included, and the optional ones the
service's query declaration enables (the built-in pattern operators, `$like`, `$ilike`..., for
text fields only). A field's values
follow its schema in the record, without `null` (a query string cannot hold one).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..query.convert import is_text_field
from ..query.operators import Operator
from ..query.operators import operators as registry
from ..query.parse import OPTIONAL_OPERATORS

__all__ = ["QueryFields"]

_DESCRIPTIONS = {
    "$in": "is one of",
    "$nin": "is none of",
    "$lt": "is less than",
    "$lte": "is at most",
    "$gt": "is greater than",
    "$gte": "is at least",
    "$ne": "is not",
    "$like": "matches the SQL LIKE pattern",
    "$notlike": "does not match the SQL LIKE pattern",
    "$ilike": "matches the SQL LIKE pattern, ignoring case",
}
#: The query of each kind of call: what it reads besides the field conditions.
_FILTERS = {
    "find": ("$limit", "$skip", "$sort", "$select"),
    "multi": ("$skip", "$sort", "$select"),
    "id": ("$select",),
    "create": ("$select",),
}


@dataclass(frozen=True)
class QueryField:
    """A field a query may name: its value schema, its operators, whether `$sort` takes it."""

    name: str
    schema: dict[str, Any]
    operators: tuple[str, ...]
    sortable: bool


@dataclass(frozen=True)
class QueryFields:
    """The query language of one service."""

    fields: tuple[QueryField, ...]
    selectable: tuple[str, ...]
    max_limit: int | None = None

    @classmethod
    def of(cls, service: Any, record_schema: Mapping[str, Any]) -> QueryFields:
        """
        Read a `ModelService`'s query fields, operators, selectable fields and pagination.

        `record_schema` is the schema of its records; field values follow its properties.
        """
        properties = record_schema.get("properties", {})
        declaration = service.get_query_declaration()
        enabled = declaration.enabled_operators()
        fields = []
        tables = service._get_field_tables()
        for name, query_field in tables.query_fields.items():
            text = is_text_field(query_field.model_field)
            allowed = query_field.operators
            operators = tuple(
                operator
                for operator in enabled
                if (allowed is None or operator in allowed)
                # The built-in pattern operators compare text.
                and (text or operator not in OPTIONAL_OPERATORS)
            )
            fields.append(
                QueryField(
                    name=name,
                    schema=_value_schema(properties.get(name), text=text),
                    operators=operators,
                    sortable=query_field.sortable,
                )
            )
        paginate = declaration.get_paginate()
        return cls(
            fields=tuple(fields),
            selectable=tables.selectable,
            max_limit=paginate.max if paginate is not None else None,
        )

    def parameters(self, kind: str) -> list[dict[str, Any]]:
        """The query parameters of a call: `kind` is find, multi, id (get...) or create."""
        filters = _FILTERS[kind]
        parameters: list[dict[str, Any]] = []
        if "$limit" in filters:
            limit: dict[str, Any] = {"type": "integer", "minimum": 0}
            parameters.append(
                _parameter(
                    "$limit",
                    limit,
                    "The number of records of the page"
                    + (f", at most {self.max_limit}." if self.max_limit is not None else "."),
                )
            )
        if "$skip" in filters:
            parameters.append(
                _parameter("$skip", {"type": "integer", "minimum": 0}, "Records to skip.")
            )
        sortable = [field.name for field in self.fields if field.sortable]
        if "$sort" in filters and sortable:
            direction = {"type": "integer", "enum": [1, -1]}
            parameters.append(
                {
                    **_parameter(
                        "$sort",
                        {
                            "type": "object",
                            "properties": {name: direction for name in sortable},
                            "additionalProperties": False,
                        },
                        "Sort by these fields: 1 ascending, -1 descending "
                        f"(`$sort[{sortable[0]}]=-1`).",
                    ),
                    "style": "deepObject",
                    "explode": True,
                }
            )
        if "$select" in filters and self.selectable:
            parameters.append(
                {
                    **_parameter(
                        "$select[]",
                        {
                            "type": "array",
                            "items": {"type": "string", "enum": list(self.selectable)},
                            "minItems": 1,
                            "uniqueItems": True,
                        },
                        "Only these fields in the results (the id is always sent).",
                    ),
                    "style": "form",
                    "explode": True,
                }
            )
        if kind == "create":
            return parameters
        for field in self.fields:
            parameters.append(_parameter(field.name, field.schema, f"`{field.name}` equals."))
            for operator in field.operators:
                description = _description(field.name, operator)
                if registry[operator].many:
                    items = {"type": "array", "items": field.schema, "minItems": 1}
                    parameters.append(
                        {
                            **_parameter(f"{field.name}[{operator}][]", items, description),
                            "style": "form",
                            "explode": True,
                        }
                    )
                else:
                    schema = {"type": "string"} if operator in OPTIONAL_OPERATORS else field.schema
                    parameters.append(_parameter(f"{field.name}[{operator}]", schema, description))
        return parameters

    def conditions_schema(self) -> dict[str, Any]:
        """The field conditions as a JSON schema (a value, or an object of operators)."""
        conditions: dict[str, Any] = {}
        for field in self.fields:
            operators: dict[str, Any] = {}
            for operator in field.operators:
                if registry[operator].many:
                    operators[operator] = {"type": "array", "items": field.schema}
                elif operator in OPTIONAL_OPERATORS:
                    operators[operator] = {"type": "string"}
                else:
                    operators[operator] = field.schema
            conditions[field.name] = {
                "anyOf": [
                    field.schema,
                    {"type": "object", "properties": operators, "additionalProperties": False},
                ]
            }
        return {"type": "object", "properties": conditions, "additionalProperties": False}

    def filters_schema(self) -> dict[str, Any]:
        """`$limit`, `$skip`, `$sort` and `$select` as a JSON schema (`$or` and `$and` hold
        lists of conditions)."""
        sortable = [field.name for field in self.fields if field.sortable]
        return {
            "type": "object",
            "properties": {
                "$limit": {"type": "integer"},
                "$skip": {"type": "integer"},
                "$sort": {
                    "type": "object",
                    "properties": {name: {"type": "integer", "enum": [1, -1]} for name in sortable},
                    "additionalProperties": False,
                },
                "$select": {
                    "type": "array",
                    "items": {"type": "string", "enum": [*self.selectable]},
                },
            },
            "additionalProperties": False,
        }


def _description(field: str, operator: str) -> str:
    """What `field[operator]` means: in words for the built-in operators, else the first line
    of the docstring of the registered operator's class or function."""
    known = _DESCRIPTIONS.get(operator)
    if known is not None:
        return f"`{field}` {known}."
    registered = registry[operator]
    function = getattr(registered, "function", None)
    if function is not None:
        doc = inspect.getdoc(function)
    elif type(registered).__module__ != Operator.__module__:
        doc = inspect.getdoc(type(registered))
    else:
        doc = None
    if not doc:
        return f"`{field}` {operator}."
    return f"`{field}` {operator}: {doc.splitlines()[0]}"


def _parameter(name: str, schema: Mapping[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": dict(schema),
    }


def _value_schema(schema: Mapping[str, Any] | None, *, text: bool) -> dict[str, Any]:
    """The schema of a field's values in a query string: no `null`, no read/write flags."""
    if not schema:
        return {"type": "string"} if text else {}
    schema = {
        key: value
        for key, value in schema.items()
        if key not in ("readOnly", "writeOnly", "description", "default", "title")
    }
    kinds = schema.get("type")
    if isinstance(kinds, list):
        remaining = [kind for kind in kinds if kind != "null"]
        schema["type"] = remaining[0] if len(remaining) == 1 else remaining
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if isinstance(options, list):
            kept = [option for option in options if option.get("type") != "null"]
            if len(kept) == 1:
                del schema[key]
                schema.update(kept[0])
            else:
                schema[key] = kept
    if "enum" in schema:
        schema["enum"] = [value for value in schema["enum"] if value is not None]
    return schema

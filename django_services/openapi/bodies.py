"""
What goes in and out of a service: its records, request bodies, query, and custom methods.

    bodies = model_bodies(route, service, auto_schema)   # a ModelService, by its public hooks
    bodies.record, bodies.data, bodies.patch, bodies.query
    data, result, may_be_empty = custom_schemas(service.mark_all_complete)

A `ModelService` is read through `get_serializer()`, `_get_field_tables()` (its query fields,
the names `$select` takes, the id field), `get_query_declaration()` and `pagination_class`; its
records and request bodies become components (private fields are write-only, so they are in
request bodies only). A `Service` has free-form bodies; the authentication service has bodies
of its own. Custom methods are described by their type hints.
"""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass, field
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, resolve_type_hint

from ..server.registry import Route
from .components import AUTHENTICATION_REQUEST, AUTHENTICATION_RESULT
from .query import QueryFields

__all__ = [
    "ANY",
    "Bodies",
    "authentication_bodies",
    "custom_schemas",
    "free_bodies",
    "method_description",
    "model_bodies",
]

#: The schema of any JSON value.
ANY: dict[str, Any] = {}


@dataclass
class Bodies:
    record: dict[str, Any]
    #: What the methods answer: a record, or a record narrowed by `$select`.
    result: dict[str, Any]
    data: dict[str, Any]
    patch: dict[str, Any]
    names: dict[str, str | None]
    query: QueryFields | None = None
    paginated: bool = False
    page: dict[str, Any] | None = None
    id_schema: dict[str, Any] = field(default_factory=lambda: {"type": "string"})


def model_bodies(route: Route, service: Any, auto: AutoSchema) -> Bodies:
    """The bodies and query of a `ModelService`, read through its public hooks."""
    try:
        return _read_model_service(service, auto)
    except Exception as exc:
        # A `get_queryset` reading the call (the route, the user) cannot run without one:
        # describe the declared queryset instead.
        declared = type(service).queryset
        if declared is None:
            warn(f"{route.path}: could not read the service ({exc}); bodies are free-form.")
            return free_bodies()
        service.get_queryset = declared.all
        try:
            return _read_model_service(service, auto)
        except Exception as retry:
            warn(f"{route.path}: could not read the service ({retry}); bodies are free-form.")
            return free_bodies()


def _read_model_service(service: Any, auto: AutoSchema) -> Bodies:
    serializer = service.get_serializer()
    record = auto.resolve_serializer(serializer, "response")
    _require_every_field(record)
    data = auto.resolve_serializer(service.get_serializer(), "request")
    patch = auto.resolve_serializer(service.get_serializer(partial=True), "request")
    record_schema = record.schema or {}
    query = QueryFields.of(service, record_schema)
    id_field = service._get_field_tables().id_field
    result = {"anyOf": [record.ref, _selection(auto, record, serializer, id_field)]}
    paginate = service.get_query_declaration().get_paginate()
    paginated = paginate is not None
    page = None
    if paginate is not None:
        paginator = service.pagination_class()
        page = paginator.get_paginated_response_schema({"type": "array", "items": result})
        limit = page.get("properties", {}).get("limit")
        if paginate.default is None and paginate.max is None and isinstance(limit, dict):
            # Without a default or a largest page, a find without `$limit` has no limit.
            page["properties"]["limit"] = {**limit, "type": ["integer", "null"]}
    id_schema = dict(record_schema.get("properties", {}).get(id_field, {}))
    id_schema = {key: value for key, value in id_schema.items() if key not in ("readOnly",)}
    return Bodies(
        record=record.ref,
        result=result,
        data=data.ref if data.name else {"type": "object"},
        patch=patch.ref if patch.name else {"type": "object"},
        names={"record": record.name, "data": data.name, "patch": patch.name},
        query=query,
        paginated=paginated,
        page=page,
        id_schema=_path_value(id_schema),
    )


def _require_every_field(record: ResolvedComponent) -> None:
    """
    A record holds every field of its serializer, defaults included: drf-spectacular marks
    those optional (as in request bodies); `$select` answers have a component of their own.
    """
    schema = record.schema
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        schema["required"] = [
            name
            for name, prop in schema["properties"].items()
            if not (isinstance(prop, dict) and prop.get("writeOnly"))
        ]


def _selection(
    auto: AutoSchema, record: ResolvedComponent, serializer: Any, id_field: str
) -> dict[str, Any]:
    """
    The `<Record>Selection` component: a record answered with `$select`, which holds the
    selected fields and the id only.
    """
    schema = {key: value for key, value in (record.schema or {}).items() if key != "required"}
    if id_field in schema.get("properties", {}):
        schema["required"] = [id_field]
    schema["description"] = (
        f"{_indefinite_article(record.name)} {record.name} answered with `$select`: the "
        "selected fields and the id."
    )
    component = ResolvedComponent(
        name=f"{record.name}Selection",
        type=ResolvedComponent.SCHEMA,
        object=(type(serializer), "selection"),
        schema=schema,
    )
    auto.registry.register_on_missing(component)
    return component.ref


def free_bodies() -> Bodies:
    return Bodies(record=ANY, result=ANY, data=ANY, patch=ANY, names={})


def authentication_bodies() -> Bodies:
    result = {"$ref": f"#/components/schemas/{AUTHENTICATION_RESULT}"}
    request = {"$ref": f"#/components/schemas/{AUTHENTICATION_REQUEST}"}
    return Bodies(
        record=result,
        result=result,
        data=request,
        patch=request,
        names={"record": AUTHENTICATION_RESULT, "data": AUTHENTICATION_REQUEST},
    )


def _path_value(schema: dict[str, Any]) -> dict[str, Any]:
    kinds = schema.get("type")
    if isinstance(kinds, list):
        kinds = [kind for kind in kinds if kind != "null"]
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    return schema or {"type": "string"}


def custom_schemas(method: Any) -> tuple[dict[str, Any], dict[str, Any] | None, bool]:
    """
    A custom method's data and result schemas from its type hints (no result schema when it
    always returns None), and whether it may return nothing (204).
    """
    try:
        hints = typing.get_type_hints(method)
    except Exception:
        # Hints naming what the module only imports for type checking cannot be resolved.
        hints = {}
    parameters = list(inspect.signature(method).parameters)
    data_name = parameters[0] if parameters else None
    data_schema = _hint_schema(hints.get(data_name)) if data_name else ANY
    returned = hints.get("return", inspect.Signature.empty)
    empty = returned is inspect.Signature.empty or returned is Any or _allows_none(returned)
    if returned is type(None) or returned is None:
        return data_schema, None, True
    return data_schema, _hint_schema(returned), empty


def _hint_schema(hint: Any) -> dict[str, Any]:
    if hint is None or hint is Any or hint is inspect.Signature.empty:
        return ANY
    try:
        return resolve_type_hint(hint)
    except Exception:
        # drf-spectacular cannot express every hint; the body is then free-form.
        return ANY


def _allows_none(hint: Any) -> bool:
    return hint is type(None) or type(None) in typing.get_args(hint)


def _indefinite_article(word: str) -> str:
    """`An` before a vowel sound (`An Order`, `An Item`), else `A` (`A User`, `A Message`)."""
    lower = word.lower()
    sounds_like_you = lower.startswith(("uni", "use", "usu", "uti", "ure", "eu", "one"))
    return "An" if lower[:1] in tuple("aeiou") and not sounds_like_you else "A"


def method_description(method: Any) -> str:
    """The first paragraph of a custom method's docstring, on one line ('' without one)."""
    doc = inspect.getdoc(method) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())

"""
`FieldTables`: what a model service's options and serializer decide about its fields.

    tables = FieldTables.of(service)
    tables.id_lookup          # ("uuid", <UUIDField>): how ids are looked up
    tables.query_fields       # {"name": QueryField(...), ...}: what queries may name
    tables.selectable         # ("id", "name", ...): what `$select` may list
    tables.representation     # how records are shown without a serializer, or None

The tables are built once per service class and options, and kept until a Django setting
changes, when the queryset and the serializer are static: the service overrides none of the
hooks that may pick them per call (`get_queryset`, `get_serializer_class`, `get_serializer`,
`get_serializer_context`, `get_id_field`, `fields_serializer`) and the serializer builds its
fields as DRF does. Otherwise they are built for each call, from that call's serializer, and
`representation` is None (the serializer is asked for every record).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.core.signals import setting_changed
from django.db import models

from ..query.parse import QueryField
from .filters import orm_path, serializer_query_fields
from .overrides import SERVICE_PACKAGES, is_own
from .representation import Representation
from .serializer_fields import builds_fields_as_drf

__all__ = ["SERVICE_HOOKS", "FieldTables", "has_static_fields", "has_static_queryset"]

#: The service hooks that may choose another queryset or serializer for each call.
SERVICE_HOOKS = (
    "get_queryset",
    "get_serializer_class",
    "get_serializer",
    "get_serializer_context",
    "get_id_field",
    "fields_serializer",
)


@dataclasses.dataclass(frozen=True)
class FieldTables:
    """The field tables of a model service (a value: built whole, never changed)."""

    id_field: str
    id_lookup: tuple[str, models.Field]
    query_fields: Mapping[str, QueryField]
    selectable: tuple[str, ...]
    representation: Representation | None = None

    @classmethod
    def of(cls, service: Any) -> FieldTables:
        """The tables of `service`: kept for its class and options, or built for this call."""
        key = _static_key(service)
        if key is None:
            return cls.build(service, static=False)
        tables = _KEPT.get(key)
        if tables is None:
            tables = _KEPT[key] = cls.build(service, static=True)
        return tables

    @classmethod
    def build(cls, service: Any, *, static: bool) -> FieldTables:
        """Work the tables out from the service's options and a serializer of the call."""
        serializer = service.fields_serializer()
        id_field = service.get_id_field()
        id_lookup = _id_lookup(service, serializer, id_field)
        representation = None
        if static:
            # Built without the call's context, which the fields of a representation never
            # read, so that no request outlives its call.
            shown = service.get_serializer_class()()
            service.conceal_private_fields(shown)
            representation = Representation.of(shown, model=service.get_model())
        return cls(
            id_field=id_field,
            id_lookup=id_lookup,
            query_fields=MappingProxyType(_query_fields(service, serializer, id_field, id_lookup)),
            selectable=tuple(
                name for name, field in serializer.fields.items() if not field.write_only
            ),
            representation=representation,
        )


def _id_lookup(service: Any, serializer: Any, name: str) -> tuple[str, models.Field]:
    model = service.get_model()
    resolved = None
    serializer_field = serializer.fields.get(name)
    if serializer_field is not None:
        resolved = orm_path(model, serializer_field)
    if resolved is None:
        try:
            model_field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        except FieldDoesNotExist:
            model_field = None
        if model_field is None or not getattr(model_field, "concrete", False):
            raise ImproperlyConfigured(
                f"{type(service).__name__}.id_field {name!r} is neither a serializer field "
                f"reading a column nor a field of {model.__name__}."
            )
        resolved = (model_field.name, model_field)
    path, model_field = resolved
    if "__" in path or not (model_field.primary_key or model_field.unique):
        raise ImproperlyConfigured(
            f"{type(service).__name__}.id_field {name!r} must be a unique field of "
            f"{model.__name__}."
        )
    return resolved


def _query_fields(
    service: Any, serializer: Any, id_field: str, id_lookup: tuple[str, models.Field]
) -> dict[str, QueryField]:
    name = type(service).__name__
    declaration = service.get_query_declaration()
    names = declaration.get_field_names()
    sort_fields = declaration.sort_fields
    include = None
    if names is not None:
        include = {*names, id_field}
        unknown = sorted(set(names) - set(serializer.fields))
        if unknown:
            raise ImproperlyConfigured(
                f"{name}.query_fields names {unknown}, which the serializer does not have."
            )
    fields = serializer_query_fields(
        serializer, service.get_model(), include=include, sortable=sort_fields
    )
    if sort_fields is not None:
        unsortable = sorted(set(sort_fields) - set(fields))
        if unsortable:
            raise ImproperlyConfigured(
                f"{name}.sort_fields names {unsortable}, which are not queryable fields "
                "(see query_fields and private_fields)."
            )
    if id_field not in fields:
        fields[id_field] = QueryField(id_field, *id_lookup)
    return declaration.restrict(fields)


@functools.lru_cache(maxsize=512)
def has_static_queryset(service_class: type) -> bool:
    """Whether the service class keeps DRF's `get_queryset` (its queryset is its attribute)."""
    return is_own(service_class, "get_queryset", SERVICE_PACKAGES)


@functools.lru_cache(maxsize=512)
def has_static_fields(service_class: type, serializer_class: type) -> bool:
    """Whether neither class customises how the serializer and its fields are chosen."""
    return builds_fields_as_drf(serializer_class) and all(
        is_own(service_class, name, SERVICE_PACKAGES) for name in SERVICE_HOOKS
    )


#: (service class, serializer class, model, options) -> the tables of that service.
_KEPT: dict[tuple[Any, ...], FieldTables] = {}


def _static_key(service: Any) -> tuple[Any, ...] | None:
    """The key the tables of `service` are kept under, or None when they are per call."""
    serializer_class = service.serializer_class
    if (
        service.queryset is None
        or serializer_class is None
        # Classes are hashable; typeshed's `Hashable` check misreads class objects.
        or not has_static_fields(type(service), serializer_class)  # type: ignore[arg-type]
    ):
        return None
    declaration = service.get_query_declaration()
    try:
        key = (
            type(service),
            serializer_class,
            service.queryset.model,
            type(declaration),
            declaration.id_field,
            _options_key(declaration.fields),
            _options_key(declaration.sort_fields),
            _options_key(declaration.private_fields),
        )
        hash(key)
    except TypeError:
        return None
    return key


def _options_key(value: Any) -> Any:
    """A hashable form of a collection option (TypeError when it holds unhashable items)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return tuple((name, _options_key(item)) for name, item in value.items())
    return tuple(value)


def _forget_tables(**kwargs: Any) -> None:
    _KEPT.clear()


setting_changed.connect(_forget_tables)

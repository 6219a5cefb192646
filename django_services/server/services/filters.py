"""
The Feathers query language as a DRF filter backend, and the fields a service's queries name.

    class MessageService(ModelService):
        filter_backends = [TenantFilter, FeathersQueryFilter]   # yours run on every method too

    serializer_query_fields(MessageSerializer(), Message)
    # {"id": QueryField("id", "id", ...), "userId": QueryField("userId", "user_id", ...), ...}

Queries name fields by their API names, the serializer's field names: each readable field
whose `source` leads to a model column (through forward relations) may be queried, under the
ORM path of that source. Write-only fields, and so private ones, are never queryable.

`FieldTables` holds what a model service's query declaration and serializer decide about its
fields: the id lookup, the query fields, the names `$select` may list and the representation
of its records. The tables are kept per service class, serializer class (what
`get_serializer_class()` answers for the call), model and query declaration, until a Django
setting changes, when the service has a `representation_class` and its serializer class builds
its fields as DRF does (its fields cannot depend on the call). Otherwise (`representation_class
= None`, the plain serializer path, or a serializer choosing its fields per call) they are
built for each call, from that call's serializer, and `representation` is None.

The backend applies the query of the call in progress, which it fetches with `get_query`
(`view.call.query`, parsed once per call by `ModelService` from `params.query`, before any
filter backend runs): conditions, `$sort`, and `$select` as `.only()`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.core.signals import setting_changed
from django.db import models
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.filters import BaseFilterBackend

from ...query.orm import apply_filters, apply_select
from ...query.parse import FeathersQuery, QueryField
from .representation import Representation, builds_fields_as_drf

__all__ = ["FeathersQueryFilter", "FieldTables", "orm_path", "serializer_query_fields"]


class FeathersQueryFilter(BaseFilterBackend):
    """Filter, sort and narrow a queryset by the Feathers query of the view's current call."""

    def get_query(self, request: Any, view: Any) -> FeathersQuery | None:
        """
        The parsed query to apply: that of the view's call in progress, which the service
        parsed from `params.query` before any filter backend runs (None outside a call).
        """
        call = getattr(view, "call", None)
        return call.query if call is not None else None

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        """Return `queryset` with the query's conditions, `$sort` and `$select` applied."""
        query = self.get_query(request, view)
        if query is None:
            return queryset
        return apply_select(apply_filters(queryset, query), query)


def serializer_query_fields(
    serializer: serializers.BaseSerializer,
    model: type[models.Model],
    *,
    include: Collection[str] | None = None,
    sortable: Collection[str] | None = None,
) -> dict[str, QueryField]:
    """
    The `QueryField`s of a serializer: its readable fields that map to a model column.

    `include` keeps only the names listed; `sortable` limits which of them `$sort` accepts
    (None: all).
    """
    form = cast(
        serializers.Serializer,
        serializer.child if isinstance(serializer, serializers.ListSerializer) else serializer,
    )
    fields: dict[str, QueryField] = {}
    for name, field in form.fields.items():
        if field.write_only or (include is not None and name not in include):
            continue
        resolved = orm_path(model, field)
        if resolved is None:
            continue
        path, model_field = resolved
        fields[name] = QueryField(
            name=name,
            path=path,
            model_field=model_field,
            sortable=sortable is None or name in sortable,
        )
    return fields


def orm_path(
    model: type[models.Model], field: serializers.Field
) -> tuple[str, models.Field] | None:
    """
    The ORM lookup path and model field a serializer field reads, or None.

    None when the field reads no column: a method field, a property, a to-many relation, a
    nested serializer, a relation shown by something other than its key or a slug.
    """
    if (
        field.source is None
        or field.source == "*"
        or isinstance(
            field,
            (serializers.ManyRelatedField, serializers.ListSerializer, serializers.Serializer),
        )
    ):
        return None
    current = model
    parts: list[str] = []
    model_field: Any = None
    is_column = False
    attrs = field.source.split(".")
    for index, attr in enumerate(attrs):
        try:
            model_field = current._meta.pk if attr == "pk" else current._meta.get_field(attr)
        except FieldDoesNotExist:
            return None
        if model_field.many_to_many or model_field.one_to_many:
            return None
        # `owner_id` names the column of the `owner` key: a plain value, not a relation.
        is_column = attr == getattr(model_field, "attname", None) != model_field.name
        parts.append(attr if is_column else model_field.name)
        if index < len(attrs) - 1:
            if not model_field.is_relation or model_field.related_model is None:
                return None
            current = model_field.related_model
    if not getattr(model_field, "concrete", False):
        return None
    if model_field.is_relation and not is_column:
        if isinstance(field, serializers.SlugRelatedField):
            try:
                model_field = model_field.related_model._meta.get_field(field.slug_field)
            except FieldDoesNotExist:
                return None
            parts.append(model_field.name)
        elif not isinstance(field, (serializers.PrimaryKeyRelatedField, serializers.ReadOnlyField)):
            return None
    return "__".join(parts), model_field


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
        key = _kept_key(service)
        if key is None:
            return cls.build(service, static=False)
        tables = _KEPT.get(key)
        if tables is None:
            tables = _KEPT[key] = cls.build(service, static=True, serializer_class=key[1])
        return tables

    @classmethod
    def build(
        cls, service: Any, *, static: bool, serializer_class: type | None = None
    ) -> FieldTables:
        """
        Work the tables out from the service's options and a serializer: for kept tables, one
        of `serializer_class` built without the call's context (its fields cannot depend on
        it), so that no request outlives its call; else the call's own.
        """
        model = service._model()
        representation = None
        if static and serializer_class is not None:
            serializer = serializer_class()
            service._conceal_private_fields(serializer)
            representation = service.representation_class.of(serializer, model=model)
        else:
            serializer = service._call_serializer()
        id_field = service._id_field()
        id_lookup = _id_lookup(service, serializer, model, id_field)
        return cls(
            id_field=id_field,
            id_lookup=id_lookup,
            query_fields=MappingProxyType(
                _query_fields(service, serializer, model, id_field, id_lookup)
            ),
            selectable=tuple(
                name for name, field in serializer.fields.items() if not field.write_only
            ),
            representation=representation,
        )

    @classmethod
    def check(cls, service: Any, serializer: Any, model: type[models.Model]) -> None:
        """Raise ImproperlyConfigured for an id field or query fields `serializer` lacks."""
        id_field = service.get_query_declaration().id_field or model._meta.pk.name
        id_lookup = _id_lookup(service, serializer, model, id_field)
        _query_fields(service, serializer, model, id_field, id_lookup)


def _id_lookup(
    service: Any, serializer: Any, model: type[models.Model], name: str
) -> tuple[str, models.Field]:
    resolved = None
    serializer_field = serializer.fields.get(name)
    if serializer_field is not None:
        resolved = orm_path(model, serializer_field)
    if resolved is None:
        model_field: Any
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
    path, field = resolved
    if "__" in path or not (field.primary_key or field.unique):
        raise ImproperlyConfigured(
            f"{type(service).__name__}.id_field {name!r} must be a unique field of "
            f"{model.__name__}."
        )
    return resolved


def _query_fields(
    service: Any,
    serializer: Any,
    model: type[models.Model],
    id_field: str,
    id_lookup: tuple[str, models.Field],
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
    fields = serializer_query_fields(serializer, model, include=include, sortable=sort_fields)
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


#: (service class, serializer class, model, options) -> the tables of that service.
_KEPT: dict[tuple[Any, ...], FieldTables] = {}


def _kept_key(service: Any) -> tuple[Any, ...] | None:
    """The key the tables of `service` are kept under, or None when they are per call."""
    if service.representation_class is None:
        return None
    serializer_class = service.get_serializer_class()
    if not builds_fields_as_drf(serializer_class):
        return None
    declaration = service.get_query_declaration()
    # A declaration is kept per service class and options: so is the part of the key it gives.
    options = vars(declaration).get("_tables_key")
    try:
        if options is None:
            options = declaration._tables_key = (
                type(declaration),
                declaration.id_field,
                _options_key(declaration.fields),
                _options_key(declaration.sort_fields),
                _options_key(declaration.private_fields),
            )
        key = (
            type(service),
            serializer_class,
            service._model(),
            service.representation_class,
            *options,
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

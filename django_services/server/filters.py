"""
The Feathers query language as a DRF filter backend.

    class MessageService(ModelService):
        filter_backends = [TenantFilter, FeathersQueryFilter]   # yours run on every method too

    serializer_query_fields(MessageSerializer(), Message)
    # {"id": QueryField("id", "id", ...), "userId": QueryField("userId", "user_id", ...), ...}

Queries name fields by their API names, the serializer's field names: each readable field
whose `source` leads to a model column (through forward relations) may be queried, under the
ORM path of that source. Write-only fields, and so private ones, are never queryable.

The backend applies the query of the call in progress, which it fetches with `get_query`
(`view.call.query`, parsed once per call by `ModelService` from `params.query`, before any
filter backend runs): conditions, `$sort`, and `$select` as `.only()`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.filters import BaseFilterBackend

from ..query.orm import apply_filters, apply_select
from ..query.parse import FeathersQuery, QueryField

__all__ = ["FeathersQueryFilter", "orm_path", "serializer_query_fields"]


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

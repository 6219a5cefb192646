"""
Records shown as their `ModelSerializer` shows them, without a serializer per call.

    representation = Representation.of(PersonSerializer(), model=Person)
    representation(person)                 # what PersonSerializer(person).data holds
    representation.many(people)            # a list of those
    representation.only(["id", "name"])    # the same, limited to some fields
    representation.rows(people.values_list(*representation.columns))   # from tuples

Serializing a record through DRF means building a serializer and, for a `ModelSerializer`, its
fields, then walking them. For the common serializer, whose fields each read one column and
turn its value into JSON without looking at the request, that work gives the same result on
every call. `Representation.of` recognises such a serializer and keeps, per field, the column
to read and the bound method of the field that converts its value
(`field.to_representation`): the very method DRF calls, so values, formats and the active
time zone come out as DRF renders them.

It answers None, and the caller uses the serializer, for anything else: a serializer that
overrides how it represents records (`to_representation`, `data`, a custom list serializer),
and a readable field that is not one of DRF's own column fields (`SerializerMethodField`,
nested serializers, file and hyperlinked fields, which read the request; a subclass of a DRF
field, which may change its conversion), or whose source is not a concrete column (a property,
a method, a dotted path, `"*"`).
"""

from __future__ import annotations

import datetime
import functools
import inspect
import weakref
from collections.abc import Callable, Collection, Iterable
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from rest_framework import ISO_8601, fields, relations, serializers
from rest_framework.settings import api_settings

from ..._drf_compat import (
    READABLE_FIELDS_HOOK,
    model_builds_own_instances,
    queryset_prefetches,
    queryset_yields_instances,
)
from .overrides import is_own

__all__ = ["COLUMN_FIELDS", "FIELD_HOOKS", "Representation", "builds_fields_as_drf"]

#: DRF fields whose conversion depends on nothing but the value and the field's own options.
COLUMN_FIELDS: frozenset[type] = frozenset(
    {
        # Newer DRF versions only.
        getattr(fields, "BigIntegerField", fields.IntegerField),
        fields.BooleanField,
        fields.CharField,
        fields.ChoiceField,
        fields.DateField,
        fields.DateTimeField,
        fields.DecimalField,
        fields.DurationField,
        fields.EmailField,
        fields.FilePathField,
        fields.FloatField,
        fields.IntegerField,
        fields.IPAddressField,
        fields.JSONField,
        fields.ReadOnlyField,
        fields.RegexField,
        fields.SlugField,
        fields.TimeField,
        fields.URLField,
        fields.UUIDField,
    }
)

#: The serializer methods DRF builds fields with: overridden, they may read the request.
FIELD_HOOKS = (
    "__new__",
    "__init__",
    "many_init",
    "fields",
    "get_fields",
    "get_field_names",
    "get_default_field_names",
    "get_extra_kwargs",
    "include_extra_kwargs",
    "get_uniqueness_extra_kwargs",
    "build_field",
    "build_standard_field",
    "build_relational_field",
    "build_nested_field",
    "build_property_field",
    "build_url_field",
    "build_unknown_field",
)

# Weak keys: serializer classes made on the fly (one per call, say) must not pile up here.
_builds_as_drf: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()


def builds_fields_as_drf(serializer_class: type) -> bool:
    """Whether every method DRF builds the fields of `serializer_class` with is DRF's own."""
    known = _builds_as_drf.get(serializer_class)
    if known is None:
        known = _builds_as_drf[serializer_class] = all(
            is_own(serializer_class, name) for name in FIELD_HOOKS
        )
    return known


#: The serializer methods that decide how records are represented.
REPRESENTATION_HOOKS = ("to_representation", "data", READABLE_FIELDS_HOOK)

Convert = Callable[[Any], Any]
_UTC_KEYS = frozenset({"UTC", "Etc/UTC"})
#: A field's conversion, or a function giving it for one call (what depends on the call).
Step = tuple[str, str, Convert, Callable[[], Convert] | None]


def _primary_key(value: Any) -> Any:
    # What `PrimaryKeyRelatedField.to_representation` answers for the column's value.
    return value


def _datetime_conversion(field: fields.DateTimeField) -> Callable[[], Convert]:
    """
    `DateTimeField.to_representation`, with the time zone looked up once per call instead of
    once per value (Django's current time zone is a context-local lookup).
    """

    def for_this_call() -> Convert:
        output_format = getattr(field, "format", api_settings.DATETIME_FORMAT)
        if output_format is None or output_format.lower() != ISO_8601:
            return field.to_representation
        zone = field.timezone if hasattr(field, "timezone") else field.default_timezone()
        if zone is None:
            return field.to_representation
        to_utc = zone is datetime.timezone.utc or getattr(zone, "key", None) in _UTC_KEYS

        def convert(value: Any) -> Any:
            if not isinstance(value, datetime.datetime):
                return field.to_representation(value)
            offset = value.utcoffset()
            if offset is None:
                return field.to_representation(value)
            if to_utc and not offset:
                # Already in UTC (what databases return): converting would change nothing.
                text = value.isoformat()
            else:
                try:
                    text = value.astimezone(zone).isoformat()
                except OverflowError:
                    return field.to_representation(value)  # DRF's own error
            return text[:-6] + "Z" if text.endswith("+00:00") else text

        return convert

    return for_this_call


class Representation:
    """
    The readable fields of a serializer, as (name, attribute, conversion) steps.

    Call it on a model instance for the dict its serializer's `.data` holds.
    """

    __slots__ = ("_fixed", "_only", "_per_call", "_positions", "columns", "steps")

    #: The attributes it reads, each once: what `rows()` takes, in order.
    columns: tuple[str, ...]

    def __init__(self, steps: Iterable[Step]) -> None:
        steps = self.steps = tuple(steps)
        self._per_call = any(per_call is not None for *_, per_call in steps)
        self._fixed = tuple((name, attribute, convert) for name, attribute, convert, _ in steps)
        self._only: dict[tuple[str, ...], Representation] = {}
        self.columns = tuple(dict.fromkeys(attribute for _, attribute, *_ in steps))
        self._positions = {column: index for index, column in enumerate(self.columns)}

    @classmethod
    def of(
        cls, serializer: serializers.BaseSerializer, *, model: type[models.Model]
    ) -> Representation | None:
        """
        The representation of `serializer`'s records, or None when only the serializer can
        produce it (`declines` says why). `serializer` is kept: its fields convert the values.
        """
        reason, steps = _steps(serializer, model)
        return None if reason is not None else cls(steps)

    @classmethod
    def declines(
        cls, serializer: serializers.BaseSerializer, queryset: models.QuerySet
    ) -> str | None:
        """
        Why the records of `queryset`, as `serializer` shows them, cannot be read as tuples of
        columns and shown without the serializer; None when they can. The one check of the
        fast path: a service whose `representation_class` is None never asks it.
        """
        reason, steps = _steps(serializer, queryset.model)
        if reason is not None:
            return reason
        return cls(steps).declines_rows(queryset)

    def declines_rows(self, queryset: models.QuerySet) -> str | None:
        """
        Why the records of `queryset` must be read as model instances rather than as tuples
        of `columns` (`values_list`); None when tuples show them as instances would.
        """
        model = queryset.model
        if not queryset_yields_instances(queryset):
            return "the queryset yields something other than model instances"
        if queryset_prefetches(queryset):
            return "the queryset prefetches related records, which need instances"
        if queryset.query.distinct:
            return "the queryset is DISTINCT, over columns a page may not show"
        if model_builds_own_instances(model):
            return f"{model.__name__} builds its instances its own way (from_db or init signals)"
        # Classes are hashable; typeshed's `Hashable` check misreads class objects.
        unstored = _not_read_as_stored(model, self.columns)  # type: ignore[arg-type]
        if unstored:
            return f"{model.__name__}.{unstored} is read through a descriptor of its own"
        return None

    def __call__(self, instance: models.Model) -> dict[str, Any]:
        """The representation of one record."""
        return _represent(instance, self._conversions())

    def many(self, instances: Iterable[models.Model]) -> list[dict[str, Any]]:
        """The representations of several records, in order."""
        conversions = self._conversions()
        return [_represent(instance, conversions) for instance in instances]

    def rows(self, rows: Iterable[tuple[Any, ...]]) -> list[dict[str, Any]]:
        """
        The representations of records read as tuples of `columns`
        (`queryset.values_list(*representation.columns)`), in order.
        """
        positions = self._positions
        conversions = [
            (name, positions[attribute], convert)
            for name, attribute, convert in self._conversions()
        ]
        return [
            {
                name: None if row[index] is None else convert(row[index])
                for name, index, convert in conversions
            }
            for row in rows
        ]

    def _conversions(self) -> tuple[tuple[str, str, Convert], ...]:
        if not self._per_call:
            return self._fixed
        return tuple(
            (name, attribute, convert if per_call is None else per_call())
            for name, attribute, convert, per_call in self.steps
        )

    def only(self, names: Collection[str]) -> Representation:
        """The same representation, limited to `names` (in the serializer's order)."""
        key = tuple(names)
        limited = self._only.get(key)
        if limited is None:
            if len(self._only) >= 64:
                self._only.clear()
            wanted = set(names)
            limited = self._only[key] = Representation(
                step for step in self.steps if step[0] in wanted
            )
        return limited


def _represent(
    instance: models.Model, conversions: tuple[tuple[str, str, Convert], ...]
) -> dict[str, Any]:
    data = {}
    for name, attribute, convert in conversions:
        value = getattr(instance, attribute)
        # As DRF: None is shown as null without asking the field.
        data[name] = None if value is None else convert(value)
    return data


def _steps(
    serializer: serializers.BaseSerializer, model: type[models.Model]
) -> tuple[str | None, list[Step]]:
    """The steps of `serializer`'s readable fields, or why it must show records itself."""
    serializer_class = type(serializer)
    if not isinstance(serializer, serializers.ModelSerializer):
        return f"{serializer_class.__name__} is not a ModelSerializer", []
    if not builds_fields_as_drf(serializer_class):
        return f"{serializer_class.__name__} builds its fields its own way", []
    meta = getattr(serializer_class, "Meta", None)
    if getattr(meta, "list_serializer_class", serializers.ListSerializer) is not (
        serializers.ListSerializer
    ):
        return f"{serializer_class.__name__} has a list serializer of its own", []
    for name in REPRESENTATION_HOOKS:
        if not is_own(serializer_class, name):
            return f"{serializer_class.__name__} overrides {name}", []
    steps = []
    for name, field in serializer.fields.items():
        if field.write_only:
            continue
        step = _step(name, field, model)
        if step is None:
            return (
                f"field {name!r} is a {type(field).__name__} reading "
                f"{field.source!r}, not one of DRF's column fields reading a column"
            ), []
        steps.append(step)
    return None, steps


@functools.cache
def _not_read_as_stored(model: type[models.Model], columns: tuple[str, ...]) -> str | None:
    """The first column whose attribute on an instance is not the value loaded, or None."""
    for column in columns:
        if type(inspect.getattr_static(model, column, None)) not in _STORED_VALUE_DESCRIPTORS:
            return column
    return None


#: Django's own attributes of concrete fields: they answer the loaded value as it is.
_STORED_VALUE_DESCRIPTORS = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _step(name: str, field: fields.Field, model: type[models.Model]) -> Step | None:
    """How to represent one field, or None when only the field itself can."""
    if len(field.source_attrs) != 1:
        return None
    try:
        model_field = model._meta.get_field(field.source_attrs[0])
    except FieldDoesNotExist:
        return None
    if not model_field.concrete:
        return None
    field_class = type(field)
    if type(field) is relations.PrimaryKeyRelatedField:
        if field.pk_field is not None or not (model_field.many_to_one or model_field.one_to_one):
            return None
        # DRF reads the column (`author_id`) without loading the related record.
        return name, model_field.attname, _primary_key, None
    if field_class not in COLUMN_FIELDS or model_field.is_relation:
        return None
    per_call = _datetime_conversion(field) if type(field) is fields.DateTimeField else None
    return name, model_field.attname, field.to_representation, per_call

"""
The options of a `ModelService`, its serializers, and the field tables they decide.

    service.get_query_declaration()   # QueryDeclaration: fields, operators, paging
    service.get_field_tables()        # FieldTables: id lookup, query fields, `$select` names
    service.represent(records, many=True)

`ModelOptionsMixin` holds what `ModelService` reads from its class attributes and serializer;
`model_services.py` holds the Feathers methods that use it.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Collection, Mapping
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import signals
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from rest_framework import serializers

from ..query.parse import QueryField
from .field_tables import FieldTables, has_static_queryset
from .overrides import SERVICE_PACKAGES, is_own
from .query_set import SHORTHAND, QueryDeclaration
from .representation import Representation
from .serializer_fields import reuse_built_fields

__all__ = ["ModelOptionsMixin"]

#: The service (and paginator) methods that see a find's records: overridden, they may want
#: instances.
_ROW_HOOKS = ("represent", "paginate_queryset")


class ModelOptionsMixin:
    """The options, serializers and field tables of a model service (see `ModelService`)."""

    queryset: Any = None
    serializer_class: Any = None
    #: The query declaration (see `query_set.py`); None: one made of the shorthand below.
    query_class: type[QueryDeclaration] | None = None
    id_field: str | None = None
    paginate: Mapping[str, Any] | bool | None = None
    query_fields: Collection[str] | Mapping[str, Collection[str] | None] | None = None
    sort_fields: Collection[str] | None = None
    private_fields: Collection[str] = ()
    operators: Collection[str] | None = None

    call: Any = None
    params: Any = None
    # What this call worked out, when it cannot be kept for the class (see `FieldTables`).
    _fields_serializer: Any = None
    _call_tables: FieldTables | None = None
    _call_declaration: QueryDeclaration | None = None

    def validate_options(self) -> None:
        """Also check the query declaration, and, for a static queryset and serializer, the
        fields."""
        super().validate_options()  # type: ignore[misc]
        cls = type(self)
        if self.query_class is not None:
            shorthand = [
                name
                for name in SHORTHAND.values()
                if getattr(self, name) != getattr(ModelOptionsMixin, name)
            ]
            if shorthand:
                raise ImproperlyConfigured(
                    f"{cls.__name__} sets query_class and {', '.join(shorthand)}: declare "
                    "them in its query class."
                )
        self.get_query_declaration().check(cls.__name__)
        if (
            self.queryset is not None
            and self.serializer_class is not None
            # Classes are hashable; typeshed's `Hashable` check misreads class objects.
            and has_static_queryset(cls)  # type: ignore[arg-type]
            and is_own(cls, "get_serializer_class", SERVICE_PACKAGES)
        ):
            self.get_field_tables()

    def get_query_declaration(self) -> QueryDeclaration:
        """
        What the service's queries may do: an instance of `query_class`, or the declaration
        of the shorthand options (`query_fields`, `sort_fields`, ...). One per call.
        """
        declaration = self._call_declaration
        if declaration is None:
            query_class = self.query_class
            declaration = self._call_declaration = (
                query_class() if query_class is not None else QueryDeclaration.of_service(self)
            )
        return declaration

    def get_id_field(self) -> str:
        """The API name of the id field."""
        id_field = self.get_query_declaration().id_field
        if id_field is not None:
            return id_field
        return self.get_model()._meta.pk.name

    def get_model(self) -> type[models.Model]:
        """The model of the service's queryset."""
        # Without a `get_queryset` override the model is known without cloning the queryset.
        # Classes are hashable; typeshed's `Hashable` check misreads class objects.
        if self.queryset is not None and has_static_queryset(type(self)):  # type: ignore[arg-type]
            return self.queryset.model
        return self.get_queryset().model  # type: ignore[attr-defined]

    # Field tables -------------------------------------------------------------------------

    def get_field_tables(self) -> FieldTables:
        """The field tables of the service: kept per class and options, or of this call."""
        tables = self._call_tables
        if tables is None:
            tables = self._call_tables = FieldTables.of(self)
        return tables

    def get_id_lookup(self) -> tuple[str, models.Field]:
        """The ORM path and model field of the id field (which must be unique)."""
        return self.get_field_tables().id_lookup

    def get_query_fields(self) -> dict[str, QueryField]:
        """The fields queries may name, by API name (private fields are never among them)."""
        return dict(self.get_field_tables().query_fields)

    def get_selectable_fields(self) -> list[str]:
        """The names `$select` may list: the fields results show."""
        return list(self.get_field_tables().selectable)

    def get_representation(self) -> Representation | None:
        """
        How records are shown without building a serializer per call, or None when the
        serializer must be built (see `django_services.server.representation`).
        """
        return self.get_field_tables().representation

    def call_representation(self) -> Representation | None:
        """`get_representation()` limited to the fields the call `$select`s."""
        representation = self.get_representation()
        call = self.call
        query = call.query if call is not None else None
        if representation is not None and query is not None and query.select is not None:
            representation = representation.only(query.select)
        return representation

    def row_representation(self, queryset: models.QuerySet) -> Representation | None:
        """
        The representation of a find's records when they can be read as tuples of its
        `columns` (`values_list`), as a hand-written view reads them, without a model
        instance per row; None when they must be instances.

        Instances are needed when the service shows or pages records its own way
        (`represent` or `paginate_queryset` overridden, no representation), when the model
        builds instances its own way (`from_db`, init signal receivers) or a shown column is
        read through a descriptor of its field's own (money or encrypted fields, say), or
        when the queryset reads more than columns (`prefetch_related`, `distinct`, an
        iterable other than models').
        """
        representation = self.call_representation()
        if representation is None or not _shows_rows_as_built(type(self)):
            return None
        paginator = getattr(self, "paginator", None)
        if paginator is not None and not _shows_rows_as_built(type(paginator)):
            return None
        model = queryset.model
        if (
            queryset._iterable_class is not models.query.ModelIterable
            or queryset._prefetch_related_lookups  # type: ignore[attr-defined]  # unstubbed
            or queryset.query.distinct
            or model.from_db.__func__ is not models.Model.from_db.__func__  # type: ignore[attr-defined]
            or signals.pre_init.has_listeners(model)
            or signals.post_init.has_listeners(model)
            # Classes are hashable; typeshed's `Hashable` check misreads class objects.
            or not _read_as_stored(model, representation.columns)  # type: ignore[arg-type]
        ):
            return None
        return representation

    def forget_call_tables(self) -> None:
        """Drop what the previous call worked out (a new call may choose other fields)."""
        self._fields_serializer = None
        self._call_tables = None
        self._call_declaration = None

    # Serializers --------------------------------------------------------------------------

    def fields_serializer(self) -> serializers.BaseSerializer:
        """A serializer without data, read for its fields (one per call)."""
        serializer = self._fields_serializer
        if serializer is None:
            serializer = self._fields_serializer = _child(self.get_serializer())
        return serializer

    def get_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer:
        """DRF's serializer, with the private fields made write-only."""
        serializer = super().get_serializer(*args, **kwargs)  # type: ignore[misc]
        self.conceal_private_fields(_child(serializer))
        return serializer

    def conceal_private_fields(self, serializer: serializers.BaseSerializer) -> None:
        """Make the `private_fields` of `serializer` write-only."""
        reuse_built_fields(serializer)
        # The services' serializers are `Serializer`s (a `ModelSerializer` by default).
        fields = cast(serializers.Serializer, serializer).fields
        for name in self.get_query_declaration().private_fields:
            if name in fields:
                fields[name].write_only = True

    def get_serializer_context(self) -> dict[str, Any]:
        """DRF's context, plus the `params` of the call."""
        return {**super().get_serializer_context(), "params": self.params}  # type: ignore[misc]

    def represent(self, instance: Any, *, many: bool = False) -> Any:
        """Serialize records, keeping only the `$select`ed fields."""
        call = self.call
        query = call.query if call is not None else None
        representation = self.call_representation()
        if representation is not None:
            return representation.many(instance) if many else representation(instance)
        serializer = self.get_serializer(instance, many=many)
        if query is not None and query.select is not None:
            fields = _child(serializer).fields
            for name in list(fields):
                if name not in query.select:
                    del fields[name]
        return serializer.data


def _child(serializer: serializers.BaseSerializer) -> Any:
    if isinstance(serializer, serializers.ListSerializer):
        return serializer.child
    return serializer


_rows_as_built: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()


def _shows_rows_as_built(cls: type) -> bool:
    """Whether the service (or paginator) class shows and pages records as this package does."""
    known = _rows_as_built.get(cls)
    if known is None:
        known = _rows_as_built[cls] = all(
            is_own(cls, name, SERVICE_PACKAGES) for name in _ROW_HOOKS
        )
    return known


@functools.cache
def _read_as_stored(model: type[models.Model], columns: tuple[str, ...]) -> bool:
    """Whether reading each column on an instance gives the value loaded from the database."""
    return all(
        type(inspect.getattr_static(model, column, None)) in _STORED_VALUE_DESCRIPTORS
        for column in columns
    )


#: Django's own attributes of concrete fields: they answer the loaded value as it is.
_STORED_VALUE_DESCRIPTORS = (DeferredAttribute, ForeignKeyDeferredAttribute)

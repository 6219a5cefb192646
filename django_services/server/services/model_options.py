"""
The options of a `ModelService`, its serializers, and the field tables they decide.

    service.get_query_declaration()   # QueryDeclaration: fields, operators, paging
    service._get_field_tables()       # FieldTables: id lookup, query fields, `$select` names
    service.represent(records, many=True)

`ModelOptionsMixin` holds what `ModelService` reads from its class attributes and serializer;
`model_services.py` holds the Feathers methods that use it.
"""

from __future__ import annotations

from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from rest_framework import serializers

from .filters import FieldTables
from .query_set import SHORTHAND, QueryDeclaration
from .representation import Representation, builds_fields_as_drf
from .serializer_fields import reuse_built_fields

__all__ = ["ModelOptionsMixin"]


class ModelOptionsMixin:
    """The options, serializers and field tables of a model service (see `ModelService`)."""

    #: How records are shown without a serializer per call (see `representation.py`); None:
    #: the plain serializer path, a serializer built for each call and its records instances.
    representation_class: type[Representation] | None = Representation
    #: The query declaration (see `query_set.py`); None: one made of the shorthand options
    #: a service class may set instead, `query_fields`, `sort_fields`, `private_fields`,
    #: `operators`, `id_field` and `paginate` (read by `QueryDeclaration.of_service`).
    query_class: type[QueryDeclaration] | None = None
    _shorthand_options: tuple[str, ...] = tuple(SHORTHAND.values())

    # Provided by the DRF view and the service the mixin is combined with.
    call: Any
    params: Any
    queryset: Any
    serializer_class: Any
    # What this call worked out, when it cannot be kept for the class (see `FieldTables`).
    _fields_serializer: Any = None
    _call_tables: FieldTables | None = None
    _call_declaration: QueryDeclaration | None = None

    def _validate_options(self) -> None:
        """Also check the query declaration, and, for a static queryset and serializer, the
        fields."""
        super()._validate_options()  # type: ignore[misc]
        cls = type(self)
        if self.query_class is not None:
            shorthand = [name for name in SHORTHAND.values() if hasattr(self, name)]
            if shorthand:
                raise ImproperlyConfigured(
                    f"{cls.__name__} sets query_class and {', '.join(shorthand)}: declare "
                    "them in its query class."
                )
        self.get_query_declaration().check(cls.__name__)
        if (
            self.queryset is not None
            and self.serializer_class is not None
            and builds_fields_as_drf(self.serializer_class)
        ):
            # The declared queryset and serializer, without the hooks that may read the call.
            serializer = self.serializer_class()
            self._conceal_private_fields(serializer)
            FieldTables.check(self, serializer, self.queryset.model)

    def get_query_declaration(self) -> QueryDeclaration:
        """
        What the service's queries may do: an instance of `query_class`, or the declaration
        of the shorthand options (`query_fields`, `sort_fields`, ...). Built once per class
        and options, and shared by its calls (a declaration holds no call state).
        """
        declaration = self._call_declaration
        if declaration is None:
            declaration = self._call_declaration = _kept_declaration(self)
        return declaration

    def _id_field(self) -> str:
        """The API name of the id field."""
        id_field = self.get_query_declaration().id_field
        if id_field is not None:
            return id_field
        return self._model()._meta.pk.name

    def _model(self) -> type[models.Model]:
        """
        The model of the service's queryset: that of the `queryset` attribute, as DRF's
        `get_queryset()` starts from it, else of `get_queryset()`.
        """
        if self.queryset is not None:
            return self.queryset.model
        return self.get_queryset().model  # type: ignore[attr-defined]

    # Field tables -------------------------------------------------------------------------

    def _get_field_tables(self) -> FieldTables:
        """The field tables of the service: kept per class and options, or of this call."""
        tables = self._call_tables
        if tables is None:
            tables = self._call_tables = FieldTables.of(self)
        return tables

    def _id_lookup(self) -> tuple[str, models.Field]:
        """The ORM path and model field of the id field (which must be unique)."""
        return self._get_field_tables().id_lookup

    def _representation(self) -> Representation | None:
        """
        How records are shown without building a serializer per call, or None when the
        serializer must be built (see `django_services.server.services.representation`).
        """
        return self._get_field_tables().representation

    def _call_representation(self) -> Representation | None:
        """The representation of the records, limited to the fields the call `$select`s."""
        representation = self._representation()
        call = self.call
        query = call.query if call is not None else None
        if representation is not None and query is not None and query.select is not None:
            representation = representation.only(query.select)
        return representation

    def _row_representation(self, queryset: models.QuerySet) -> Representation | None:
        """
        The representation of a find's records when they can be read as tuples of its
        `columns` (`values_list`), as a hand-written view reads them, without a model
        instance per row; None when they must be instances (`representation_class` is None,
        or `Representation.declines_rows` says why).
        """
        representation = self._call_representation()
        if representation is None or representation.declines_rows(queryset) is not None:
            return None
        return representation

    def _forget_call_tables(self) -> None:
        """Drop what the previous call worked out (a new call may choose other fields)."""
        self._fields_serializer = None
        self._call_tables = None
        self._call_declaration = None

    # Serializers --------------------------------------------------------------------------

    def _call_serializer(self) -> serializers.BaseSerializer:
        """A serializer without data, read for its fields (one per call)."""
        serializer = self._fields_serializer
        if serializer is None:
            serializer = self._fields_serializer = _child(self.get_serializer())
        return serializer

    def get_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer:
        """DRF's serializer, with the private fields made write-only."""
        serializer = super().get_serializer(*args, **kwargs)  # type: ignore[misc]
        self._conceal_private_fields(_child(serializer))
        return serializer

    def _conceal_private_fields(self, serializer: serializers.BaseSerializer) -> None:
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
        representation = self._call_representation()
        if representation is not None:
            return representation.many(instance) if many else representation(instance)
        serializer = self.get_serializer(instance, many=many)
        if query is not None and query.select is not None:
            fields = _child(serializer).fields
            for name in list(fields):
                if name not in query.select:
                    del fields[name]
        return serializer.data


#: The options a declaration is made of: the query class, or the shorthand.
_DECLARATION_OPTIONS = ("query_class", *SHORTHAND.values())

#: service class -> (the values of its options, the declaration they make).
_DECLARATIONS: dict[type, tuple[tuple[Any, ...], QueryDeclaration]] = {}

_ABSENT = object()


def _kept_declaration(service: Any) -> QueryDeclaration:
    """
    The declaration of `service`, kept for its class while its options (class attributes,
    or `register()`'s, the same objects for every request) stay the same.
    """
    values = tuple([getattr(service, name, _ABSENT) for name in _DECLARATION_OPTIONS])
    kept = _DECLARATIONS.get(type(service))
    # Equal options (the same objects, as a rule) make the same declaration.
    if kept is not None and kept[0] == values:
        return kept[1]
    query_class = service.query_class
    declaration = query_class() if query_class is not None else QueryDeclaration.of_service(service)
    _DECLARATIONS[type(service)] = (values, declaration)
    return declaration


def _child(serializer: serializers.BaseSerializer) -> Any:
    if isinstance(serializer, serializers.ListSerializer):
        return serializer.child
    return serializer

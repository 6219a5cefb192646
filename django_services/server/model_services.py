"""
`ModelService`: a Feathers database adapter made of a DRF queryset and serializer.

    class MessageService(ModelService):
        queryset = Message.objects.all()
        serializer_class = MessageSerializer
        paginate = {"default": 10, "max": 50}
        multi = ["patch", "remove"]
        id_field = "uuid"                      # any unique field; default: the primary key
        query_fields = ["text", "userId", "read", "created"]
        sort_fields = ["created"]
        private_fields = ["secret"]            # never in results, never queryable
        operators = ["$like"]

The six methods follow Feathers' adapters: `find` answers a page (or a list without
`paginate`), `create` answers 201 (an array in, an array out with `multi`), `update` replaces
the whole record (writable fields not sent go back to their model default, or null), `patch`
merges, `remove` answers the removed record. With an id, `get`, `update`, `patch` and `remove`
also apply the query, and a record that does not match is 404 with nothing written. `$select`
applies to every result. Writes run in one transaction: a multi write is all or nothing.

Concurrent writes lose nothing: `update`, `patch` and `remove` lock the records they read until
they are written (`SELECT ... FOR UPDATE`, in primary-key order, where the database has row
locks; SQLite serializes write transactions instead), and `patch` writes only the columns it
was sent, plus those its save hooks change, so two patches of different fields both stay.

DRF's hooks keep working: `get_queryset`, `get_serializer_class`, `get_serializer_context`,
`filter_backends`, `perform_create`, `perform_update`, `perform_destroy`, permissions (object
permissions are checked on every record a call reads or writes by id or by query).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.core.signals import setting_changed
from django.db import models, router, transaction
from rest_framework import serializers
from rest_framework.viewsets import GenericViewSet

from ..conf import services_settings
from ..errors import BadRequest, Conflict, NotFound
from ..query.convert import convert_value
from ..query.orm import apply_select, fetch_page
from ..query.parse import FeathersQuery, Paginate, QueryField, parse_query
from .filters import FeathersQueryFilter, orm_path, serializer_query_fields
from .pagination import FeathersPagination
from .params import Params
from .representation import Representation
from .row_writes import lock_rows, saving_changes_only
from .serializer_fields import builds_fields_as_drf, reuse_built_fields
from .views import ServiceMixin

__all__ = ["ModelService"]

REPLACE_MULTIPLE = "You can not replace multiple instances. Did you mean 'patch'?"

#: The `paginate` key that lets PostgreSQL's planner estimate the total of large finds.
ESTIMATE_TOTAL_ABOVE = "estimate_total_above"


class ModelService(ServiceMixin, GenericViewSet):
    """
    A service over a queryset and a serializer (a DRF `GenericViewSet`).

    **Options** (class attributes, or keyword arguments of `register()`), besides
    `methods` and `multi`:

    * **id_field** - the API name of the field ids are looked up by; it must be unique.
      Default: the primary key.
    * **paginate** - `{"default": D, "max": M}`, or `False` for plain lists. `None`
      (default): `DJANGO_SERVICES["PAGINATE"]`. Add `"estimate_total_above": N` to let
      PostgreSQL's planner estimate the `total` of a find it expects to match more than N
      records, instead of counting them (fast on large tables, approximate; one `EXPLAIN`
      more per counted page; other databases always count).
    * **query_fields** - the API names queries may filter on (the id is always allowed).
      Default: every readable serializer field that maps to a model column.
    * **sort_fields** - the names `$sort` accepts, among the query fields. Default: all.
    * **private_fields** - serializer fields never sent and never queryable; they stay
      writable (a password, say).
    * **operators** - extra query operators: `"$like"`, `"$notlike"`, `"$ilike"`. `None`:
      `DJANGO_SERVICES["OPERATORS"]`.

    `feathers_query` holds the parsed query of the call in progress, for the filter backend
    and the pagination class.

    What the options and the serializer decide (the query fields, the id lookup, the
    selectable fields) is worked out once per service class and options, and again after a
    setting changes. It is worked out on every call instead when the service may pick its
    queryset or serializer per call (it overrides `get_queryset`, `get_serializer_class`,
    `get_serializer`, `get_serializer_context` or `get_id_field`) or the serializer builds
    its own fields (`__init__`, `get_fields`, `build_field`...). Fields DRF generates for a
    `ModelSerializer` are built once per class and cloned for each serializer, as DRF does
    with declared fields (`serializer_fields.reuse_built_fields`).
    """

    queryset: Any = None
    serializer_class: Any = None
    filter_backends: Any = [FeathersQueryFilter]
    pagination_class: Any = FeathersPagination
    action_map: dict[str, str] = {}

    id_field: str | None = None
    paginate: Mapping[str, Any] | bool | None = None
    query_fields: Collection[str] | None = None
    sort_fields: Collection[str] | None = None
    private_fields: Collection[str] = ()
    operators: Collection[str] | None = None

    feathers_query: FeathersQuery | None = None
    _fields_serializer: Any = None

    # The standard methods ---------------------------------------------------------------

    def find(self, params: Params) -> Any:
        """Every record matching the query: a page with `paginate`, else a list."""
        query = self.prepare_query(params, find=True)
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        if page is not None:
            return self.paginator.get_paginated_data(self.represent(page, many=True))
        _, rows = fetch_page(queryset, query, paginated=False)
        return self.represent(rows, many=True)

    def get(self, id: Any, params: Params) -> Any:
        """The record with this id, if it matches the query."""
        self.prepare_query(params)
        return self.represent(self.get_instance(id))

    def create(self, data: Any, params: Params) -> Any:
        """Create a record, or several from a list when `multi` allows it."""
        query = self.prepare_query(params, select_only=True)
        many = isinstance(data, list)
        if many:
            self.check_multi("create")
        else:
            data = self.record_data(data, "create")
        serializer = self.get_serializer(data=data, many=many)
        # Validation only reads: it runs before the write transaction, which holds the whole
        # database on SQLite.
        self.check_valid(serializer)
        with self.atomic():
            self.perform_create(serializer)
        if (
            query.select is None
            and serializer.instance is not None
            and self.get_representation() is None
        ):
            # The write serializer shows the new records as a fresh one would.
            return serializer.data
        return self.represent(serializer.instance, many=many)

    def update(self, id: Any, data: Any, params: Params) -> Any:
        """Replace the record: writable fields not sent go back to their defaults."""
        if id is None or isinstance(data, list):
            raise BadRequest(REPLACE_MULTIPLE)
        data = self.without_id(self.record_data(data, "update"))
        self.prepare_query(params)
        with self.atomic():
            instance = self.get_instance(id, lock=True)
            # The record keeps its id, whatever the body says: a required id field gets it.
            data[self.get_id_field()] = getattr(instance, self.get_id_lookup()[0])
            serializer = self.get_serializer(instance, data=data)
            self.check_valid(serializer)
            serializer.validated_data.update(self.get_replacement_defaults(serializer))
            self.save_update(serializer)
        return self.represent(serializer.instance)

    def patch(self, id: Any, data: Any, params: Params) -> Any:
        """Merge `data` into the record, or into every match of the query when id is None."""
        data = self.without_id(self.record_data(data, "patch"))
        if id is None:
            return self.patch_many(data, params)
        self.prepare_query(params)
        with self.atomic():
            instance = self.get_instance(id, lock=True)
            serializer = self.get_serializer(instance, data=data, partial=True)
            self.check_valid(serializer)
            self.save_update(serializer)
        return self.represent(serializer.instance)

    def remove(self, id: Any, params: Params) -> Any:
        """Delete the record and return it, or every match of the query when id is None."""
        if id is None:
            return self.remove_many(params)
        self.prepare_query(params)
        with self.atomic():
            instance = self.get_instance(id, lock=True)
            removed = self.represent(instance)
            self.perform_destroy(instance)
        return removed

    def patch_many(self, data: Mapping[str, Any], params: Params) -> list[Any]:
        """
        Patch every record the query matches (`$limit` ignored), all or nothing.

        Returns the records found before the patch, read again after it, so a patch that
        changes a queried field still returns them.
        """
        self.check_multi("patch")
        query = self.prepare_query(params, multi=True)
        with self.atomic():
            instances = self.find_instances(lock=True)
            updates = []
            for instance in instances:
                serializer = self.get_serializer(instance, data=data, partial=True)
                self.check_valid(serializer)
                updates.append(serializer)
            for serializer in sorted(updates, key=lambda serializer: serializer.instance.pk):
                self.save_update(serializer)
        pks = [instance.pk for instance in instances]
        fresh = apply_select(self.get_queryset().filter(pk__in=pks), query)
        by_pk = {instance.pk: instance for instance in fresh}
        return self.represent([by_pk[pk] for pk in pks if pk in by_pk], many=True)

    def remove_many(self, params: Params) -> list[Any]:
        """Delete every record the query matches (`$limit` ignored), all or nothing."""
        self.check_multi("remove")
        self.prepare_query(params, multi=True)
        with self.atomic():
            instances = self.find_instances(lock=True)
            removed = self.represent(instances, many=True)
            for instance in sorted(instances, key=lambda instance: instance.pk):
                self.perform_destroy(instance)
        return removed

    # DRF's write hooks ------------------------------------------------------------------

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Save a new record (or records); override to add values (`serializer.save(...)`)."""
        serializer.save()

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """
        Save an updated or patched record.

        It runs with the record locked, and its saves write only the columns that were sent or
        that changed (see `save_update`): an override keeps that guarantee as long as it saves
        `serializer.instance` (through `serializer.save()` or `instance.save()`) within the
        call, and does not pass `update_fields` naming columns it did not change.
        """
        serializer.save()

    def perform_destroy(self, instance: models.Model) -> None:
        """Delete a record."""
        instance.delete()

    # Reading records --------------------------------------------------------------------

    def prepare_query(
        self, params: Params, *, find: bool = False, multi: bool = False, select_only: bool = False
    ) -> FeathersQuery:
        """
        Begin a call: keep `params`, parse its query into `feathers_query` and return it.

        `find` applies pagination to `$limit`; `multi` drops `$limit` (multi patch and
        remove touch every match); `select_only` reads `$select` and nothing else (create).
        """
        self.params = params
        self._fields_serializer = None
        query = params.query or {}
        if select_only:
            query = {"$select": query["$select"]} if "$select" in query else {}
        parsed = parse_query(
            query,
            fields=self.get_query_fields(),
            id_field=self.get_id_field(),
            selectable=self.get_selectable_fields(),
            paginate=self.get_paginate() if find else None,
            operators=self.get_operators(),
        )
        if multi:
            parsed = dataclasses.replace(parsed, limit=None)
        self.feathers_query = parsed
        return parsed

    def get_instance(self, id: Any, *, lock: bool = False) -> models.Model:
        """
        The record with this id among those the query matches; 404 otherwise.

        `lock` (within a transaction): lock the record's row first, so that the record read
        is the one written.
        """
        path, model_field = self.get_id_lookup()
        try:
            value = convert_value(model_field, id, name=self.get_id_field())
        except BadRequest:
            raise self.not_found(id) from None
        if lock:
            lock_rows(self._model(), self.write_database(), **{path: value})
        queryset = self.filter_queryset(self.get_queryset())
        # The id is unique: no ORDER BY needed to pick the one match (`first()` would add one).
        found = list(queryset.filter(**{path: value})[:1])
        if not found:
            raise self.not_found(id)
        instance = found[0]
        self.check_record_permissions(instance)
        return instance

    def find_instances(self, *, lock: bool = False) -> list[models.Model]:
        """
        The records the current query matches, `$skip` and `$sort` applied.

        `lock` (within a transaction): lock the rows of every match first, in primary-key
        order, then read them; a record that stopped matching, or that appeared, while the
        locks were awaited is left out.
        """
        queryset = self.filter_queryset(self.get_queryset())
        locked = None
        if lock:
            using = self.write_database()
            locked = lock_rows(self._model(), using, pk__in=queryset.using(using).values("pk"))
        _, rows = fetch_page(queryset, self.feathers_query, paginated=False)
        if locked is not None:
            rows = [instance for instance in rows if instance.pk in locked]
        for instance in rows:
            self.check_record_permissions(instance)
        return rows

    def get_matching_queryset(self, params: Params) -> models.QuerySet:
        """
        The records `params.query` matches, `$sort` applied, `$limit` and `$skip` ignored.

        For custom methods that act on what the caller's query selects:

            @service_method(name="markAllComplete")
            def mark_all_complete(self, data, params):
                todos = self.get_matching_queryset(params).filter(complete=False)
                return {"updated": todos.update(complete=True)}
        """
        self.prepare_query(params, multi=True)
        return self.filter_queryset(self.get_queryset())

    def check_record_permissions(self, instance: models.Model) -> None:
        """Check DRF object permissions on `instance` for HTTP calls."""
        if self.request is not None:
            self.check_object_permissions(self.request, instance)

    def not_found(self, id: Any) -> NotFound:
        """The error for an id that matches no record."""
        return NotFound(f"No record found for id '{id}'")

    # Writing records --------------------------------------------------------------------

    def atomic(self) -> transaction.Atomic:
        """A transaction on the database the model is written to."""
        return transaction.atomic(using=self.write_database())

    def write_database(self) -> str:
        """The alias of the database the model is written to."""
        return router.db_for_write(self._model())

    def save_update(self, serializer: serializers.BaseSerializer) -> None:
        """
        `perform_update(serializer)`, its saves of the record writing only the columns sent
        (`validated_data`), those the save hooks changed and `auto_now` dates.
        """
        with saving_changes_only(serializer.instance, sent=serializer.validated_data):
            self.perform_update(serializer)

    def record_data(self, data: Any, method: str) -> Mapping[str, Any]:
        """Check that the data of a single-record write is an object."""
        if not isinstance(data, Mapping):
            kind = "an array" if isinstance(data, list) else type(data).__name__
            raise BadRequest(f"The data for '{method}' must be an object, not {kind}.")
        return data

    def without_id(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The data without the id field: an id in the body of update or patch is ignored."""
        id_field = self.get_id_field()
        return {key: value for key, value in data.items() if key != id_field}

    def check_valid(self, serializer: serializers.BaseSerializer) -> None:
        """
        Validate, raising 400 with `errors` per field; a taken id is 409 Conflict.
        """
        if serializer.is_valid():
            return
        errors = serializer.errors
        if isinstance(serializer, serializers.ListSerializer):
            entries = errors.items() if isinstance(errors, Mapping) else enumerate(errors)
        else:
            entries = [(None, errors)]
        id_field = self.get_id_field()
        for index, item_errors in entries:
            field_errors = item_errors.get(id_field, ()) if isinstance(item_errors, Mapping) else ()
            if any(getattr(error, "code", None) == "unique" for error in field_errors):
                data = serializer.initial_data
                value = data if index is None else data[index]
                raise Conflict(f"A record with {id_field} '{value[id_field]}' already exists")
        raise serializers.ValidationError(errors)

    def get_replacement_defaults(self, serializer: serializers.BaseSerializer) -> dict[str, Any]:
        """
        What `update` writes for writable fields missing from the data: the model field's
        default (null when it has none and is nullable), an empty set for many-to-many.
        """
        model = self._model()
        id_path, _ = self.get_id_lookup()
        defaults: dict[str, Any] = {}
        for field in serializer.fields.values():
            source = field.source
            if field.read_only or source == "*" or "." in source:
                continue
            if source in serializer.validated_data or source == id_path:
                continue
            try:
                model_field = model._meta.get_field(source)
            except FieldDoesNotExist:
                continue
            if model_field.many_to_many:
                defaults[source] = []
            elif model_field.concrete and model_field.editable and not model_field.primary_key:
                key = model_field.attname if model_field.is_relation else source
                defaults[key] = model_field.get_default()
        return defaults

    # Serializing ------------------------------------------------------------------------

    def get_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer:
        """DRF's serializer, with the private fields made write-only."""
        serializer = super().get_serializer(*args, **kwargs)
        self._conceal_private_fields(_child(serializer))
        return serializer

    def _conceal_private_fields(self, serializer: serializers.BaseSerializer) -> None:
        reuse_built_fields(serializer)
        fields = serializer.fields
        for name in self.private_fields:
            if name in fields:
                fields[name].write_only = True

    def get_serializer_context(self) -> dict[str, Any]:
        """DRF's context, plus the `params` of the call."""
        return {**super().get_serializer_context(), "params": self.params}

    def represent(self, instance: Any, *, many: bool = False) -> Any:
        """Serialize records, keeping only the `$select`ed fields."""
        query = self.feathers_query
        representation = self.get_representation()
        if representation is not None:
            if query is not None and query.select is not None:
                representation = representation.only(query.select)
            return representation.many(instance) if many else representation(instance)
        serializer = self.get_serializer(instance, many=many)
        if query is not None and query.select is not None:
            fields = _child(serializer).fields
            for name in list(fields):
                if name not in query.select:
                    del fields[name]
        return serializer.data

    # Options ----------------------------------------------------------------------------

    def validate_options(self) -> None:
        """Also check `paginate`, and, for a static queryset and serializer, the fields."""
        super().validate_options()
        self.get_paginate()
        self.get_estimate_total_above()
        cls = type(self)
        static = (
            self.queryset is not None
            and self.serializer_class is not None
            and cls.get_queryset is GenericViewSet.get_queryset
            and cls.get_serializer_class is GenericViewSet.get_serializer_class
        )
        if static:
            self.get_query_fields()

    def get_paginate(self) -> Paginate | None:
        """The `paginate` option, or `DJANGO_SERVICES["PAGINATE"]`; None when off."""
        value = services_settings.PAGINATE if self.paginate is None else self.paginate
        if isinstance(value, Mapping) and ESTIMATE_TOTAL_ABOVE in value:
            value = {key: item for key, item in value.items() if key != ESTIMATE_TOTAL_ABOVE}
        return Paginate.of(value)

    def get_estimate_total_above(self) -> int | None:
        """
        `paginate["estimate_total_above"]`: on PostgreSQL, a find the planner expects to match
        more records than this answers the planner's estimate as `total`. None: always counted.
        """
        value = services_settings.PAGINATE if self.paginate is None else self.paginate
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

    def get_operators(self) -> Collection[str]:
        """The extra query operators enabled."""
        return services_settings.OPERATORS if self.operators is None else self.operators

    def get_id_field(self) -> str:
        """The API name of the id field."""
        if self.id_field is not None:
            return self.id_field
        return self._model()._meta.pk.name

    def _model(self) -> type[models.Model]:
        # Without a `get_queryset` override the model is known without cloning the queryset.
        if self.queryset is not None and _has_static_queryset(type(self)):
            return self.queryset.model
        return self.get_queryset().model

    def get_id_lookup(self) -> tuple[str, models.Field]:
        """The ORM path and model field of the id field (which must be unique)."""
        return self._kept("id_lookup", self._build_id_lookup)

    def get_query_fields(self) -> dict[str, QueryField]:
        """The fields queries may name, by API name (private fields are never among them)."""
        return dict(self._kept("query_fields", self._build_query_fields))

    def get_selectable_fields(self) -> list[str]:
        """The names `$select` may list: the fields results show."""
        return list(self._kept("selectable", self._build_selectable_fields))

    def get_representation(self) -> Representation | None:
        """
        How records are shown without building a serializer per call, or None when the
        serializer must be built (see `django_services.server.representation`).

        Only for a service whose serializer and fields are static (see
        `_static_fields_cache`); worked out once per service class and options.
        """
        return self._kept("representation", self._build_representation, otherwise=lambda: None)

    def _kept(
        self, key: str, build: Callable[[], Any], otherwise: Callable[[], Any] | None = None
    ) -> Any:
        """
        `build()`'s result, kept under `key` in the static fields cache; without that cache,
        `build()` again (or `otherwise()`) on every call.
        """
        cache = self._static_fields_cache()
        if cache is None:
            return (otherwise or build)()
        if key not in cache:
            cache[key] = build()
        return cache[key]

    def _static_fields_cache(self) -> dict[str, Any] | None:
        """
        Where the field tables of this service class and options are kept between calls, or
        None when they may change from one call to the next.

        They are kept when the queryset and the serializer class are static: the service
        overrides none of `get_queryset`, `get_serializer_class`, `get_serializer`,
        `get_serializer_context`, `get_id_field` and `fields_serializer`, and the serializer
        builds its fields as DRF does (no `__init__`, `get_fields` or `build_field`-style
        override). A serializer that shows other fields to some requests therefore keeps
        working; the tables are recomputed when any Django setting changes.
        """
        serializer_class = self.serializer_class
        if (
            self.queryset is None
            or serializer_class is None
            or not _has_static_fields(type(self), serializer_class)
        ):
            return None
        try:
            key = (
                type(self),
                serializer_class,
                self.queryset.model,
                self.id_field,
                _options_key(self.query_fields),
                _options_key(self.sort_fields),
                _options_key(self.private_fields),
            )
            return _STATIC_FIELDS.setdefault(key, {})
        except TypeError:
            return None

    def _build_representation(self) -> Representation | None:
        # Built without the call's context, which the fields of a representation never read,
        # so that no request outlives its call.
        serializer = self.get_serializer_class()()
        self._conceal_private_fields(serializer)
        return Representation.of(serializer, model=self._model())

    def _build_id_lookup(self) -> tuple[str, models.Field]:
        """Compute what `get_id_lookup()` returns, from a serializer of the call."""
        model = self._model()
        name = self.get_id_field()
        resolved = None
        serializer_field = self.fields_serializer().fields.get(name)
        if serializer_field is not None:
            resolved = orm_path(model, serializer_field)
        if resolved is None:
            try:
                model_field = model._meta.pk if name == "pk" else model._meta.get_field(name)
            except FieldDoesNotExist:
                model_field = None
            if model_field is None or not getattr(model_field, "concrete", False):
                raise ImproperlyConfigured(
                    f"{type(self).__name__}.id_field {name!r} is neither a serializer field "
                    f"reading a column nor a field of {model.__name__}."
                )
            resolved = (model_field.name, model_field)
        path, model_field = resolved
        if "__" in path or not (model_field.primary_key or model_field.unique):
            raise ImproperlyConfigured(
                f"{type(self).__name__}.id_field {name!r} must be a unique field of "
                f"{model.__name__}."
            )
        return resolved

    def _build_query_fields(self) -> dict[str, QueryField]:
        """Compute what `get_query_fields()` returns, from a serializer of the call."""
        model = self._model()
        serializer = self.fields_serializer()
        include = None
        if self.query_fields is not None:
            include = {*self.query_fields, self.get_id_field()}
            known = set(serializer.fields)
            unknown = sorted(set(self.query_fields) - known)
            if unknown:
                raise ImproperlyConfigured(
                    f"{type(self).__name__}.query_fields names {unknown}, which the "
                    f"serializer does not have."
                )
        fields = serializer_query_fields(
            serializer, model, include=include, sortable=self.sort_fields
        )
        if self.sort_fields is not None:
            unsortable = sorted(set(self.sort_fields) - set(fields))
            if unsortable:
                raise ImproperlyConfigured(
                    f"{type(self).__name__}.sort_fields names {unsortable}, which are not "
                    "queryable fields (see query_fields and private_fields)."
                )
        path, model_field = self.get_id_lookup()
        id_field = self.get_id_field()
        if id_field not in fields:
            fields[id_field] = QueryField(id_field, path, model_field)
        return fields

    def _build_selectable_fields(self) -> list[str]:
        """Compute what `get_selectable_fields()` returns, from a serializer of the call."""
        return [
            name for name, field in self.fields_serializer().fields.items() if not field.write_only
        ]

    def fields_serializer(self) -> serializers.BaseSerializer:
        """A serializer without data, read for its fields (one per call)."""
        serializer = getattr(self, "_fields_serializer", None)
        if serializer is None:
            serializer = self._fields_serializer = _child(self.get_serializer())
        return serializer


#: The service hooks that may choose another queryset or serializer for each call.
_SERVICE_HOOKS = (
    "get_queryset",
    "get_serializer_class",
    "get_serializer",
    "get_serializer_context",
    "get_id_field",
    "fields_serializer",
)
#: (service class, serializer class, model, options) -> the field tables of that service.
_STATIC_FIELDS: dict[tuple[Any, ...], dict[str, Any]] = {}


@functools.lru_cache(maxsize=512)
def _has_static_queryset(service_class: type) -> bool:
    return _defined_in(service_class, "get_queryset", ("rest_framework.", __name__))


@functools.lru_cache(maxsize=512)
def _has_static_fields(service_class: type, serializer_class: type) -> bool:
    """Whether neither class customises how the serializer and its fields are chosen."""
    return builds_fields_as_drf(serializer_class) and all(
        _defined_in(service_class, name, ("rest_framework.", __name__)) for name in _SERVICE_HOOKS
    )


def _defined_in(cls: type, name: str, modules: tuple[str, ...]) -> bool:
    """Whether the attribute `name` of `cls` comes from one of `modules` (or nowhere)."""
    for base in cls.__mro__:
        if name in vars(base):
            module = base.__module__
            return module == "builtins" or module.startswith(modules)
    return True


def _options_key(value: Any) -> Any:
    """A hashable form of a collection option (TypeError when it holds unhashable items)."""
    if value is None or isinstance(value, str):
        return value
    key = tuple(value)
    hash(key)
    return key


def _clear_static_fields(**kwargs: Any) -> None:
    _STATIC_FIELDS.clear()


setting_changed.connect(_clear_static_fields)


def _child(serializer: serializers.BaseSerializer) -> Any:
    if isinstance(serializer, serializers.ListSerializer):
        return serializer.child
    return serializer

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
        # or, in one class of its own: query_class = MessageQuery (see `query_set.py`)

The six methods follow Feathers' adapters: `find` answers a page (or a list without
`paginate`), `create` answers 201 (an array in, an array out with `multi`), `update` replaces
the whole record (writable fields not sent go back to their model default, or null), `patch`
merges, `remove` answers the removed record. With an id, `get`, `update`, `patch` and `remove`
also apply the query, and a record that does not match is 404 with nothing written. `$select`
applies to every result. Writes run in one transaction: a multi write is all or nothing (a
create that is one `INSERT` is sent alone, atomic by itself).

Concurrent writes lose nothing: `update`, `patch` and `remove` lock the records they read until
they are written (`SELECT ... FOR UPDATE`, in primary-key order, where the database has row
locks; SQLite serializes write transactions instead), and `patch` writes only the columns it
was sent, plus those its save hooks change, so two patches of different fields both stay.

DRF's hooks keep working: `get_queryset`, `get_serializer_class`, `get_serializer_context`,
`filter_backends`, `perform_create`, `perform_update`, `perform_destroy`, permissions (object
permissions are checked on every record a call reads or writes by id or by query).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any, cast

from django.db import models, router, transaction
from rest_framework import serializers
from rest_framework.viewsets import GenericViewSet

from ...errors import BadRequest, NotFound
from ...query.convert import convert_value
from ...query.orm import apply_select, fetch_page
from ...query.parse import FeathersQuery
from ..pipeline.calls import REPLACE_MULTIPLE, CallContext, attach
from ..pipeline.params import Params
from .base_service import BaseService
from .conditional import OPTIONS as CONDITIONAL_OPTIONS
from .conditional import ConditionalMixin
from .filters import FeathersQueryFilter
from .model_data import ModelDataMixin
from .model_options import ModelOptionsMixin
from .pagination import FeathersPagination
from .row_writes import (
    insert_one_row,
    inserts_one_row,
    lock_rows,
    opens_own_transaction,
    own_transaction,
    saving_changes_only,
)
from .serializer_fields import release_fields

__all__ = ["ModelService"]


# Services are routed by the services router, not DRF's (no action map), and `action` is
# None between calls: BaseService's definitions win by design.
class ModelService(  # type: ignore[misc,override]
    ConditionalMixin, ModelDataMixin, ModelOptionsMixin, BaseService, GenericViewSet
):
    """
    A service over a queryset and a serializer (a DRF `GenericViewSet`).

    **Options** (class attributes, or keyword arguments of `register()`), besides
    `methods`, `multi`, `hooks` and `events`, and DRF's `queryset`, `serializer_class`,
    `filter_backends` and `pagination_class`:

    * **query_class** - the query declaration (a `QueryDeclaration`: queryable fields and
      their operators, sort fields, private fields, optional operators, the id field,
      paging). Or its shorthand: **id_field**, **paginate**, **query_fields**,
      **sort_fields**, **private_fields**, **operators** (see `query_set.py`).
    * **representation_class** - how records are shown without a serializer per call
      (`Representation`, the default; `Representation.declines` says when it cannot), or
      None for the plain serializer path: a serializer per call, records as instances.
    * **etag_field**, **last_modified_field**, **require_preconditions** - `conditional.py`.

    **Hooks**, besides DRF's (`get_queryset`, `get_serializer_class`,
    `get_serializer_context`, `perform_create`, `perform_update`, `perform_destroy`):
    `get_query_declaration()`, `get_instance(id)`, `get_matching_queryset(params)` and
    `represent(records)`.

    The parsed query of the call in progress is `self.call.query`: the filter backend and
    the pagination class fetch it with their `get_query(request, view)` hook.
    """

    filter_backends: Any = [FeathersQueryFilter]
    pagination_class: Any = FeathersPagination
    _atomic_writes = True  # its records and their logged events commit together

    # Read with `getattr` where used: options that do not widen the class (see `conditional`).
    _shorthand_options = (*ModelOptionsMixin._shorthand_options, *CONDITIONAL_OPTIONS)

    # The standard methods ---------------------------------------------------------------

    def find(self, params: Params) -> Any:
        """Every record matching the query: a page with `paginate`, else a list."""
        query = self._prepare_query(params, "find")
        queryset = self.filter_queryset(self.get_queryset())
        representation = self._row_representation(queryset)
        if representation is not None:
            queryset = queryset.values_list(*representation.columns)

        def show(rows: list[Any]) -> list[Any]:
            if representation is not None:
                return representation.rows(rows)
            return self.represent(rows, many=True)

        page = self.paginate_queryset(queryset)
        if page is not None:
            # A page is only returned by `pagination_class`, a `FeathersPagination`.
            paginator = cast(FeathersPagination, self.paginator)
            return paginator.get_paginated_data(show(page))
        _, rows = fetch_page(queryset, query, paginated=False)
        return show(rows)

    def get(self, id: Any, params: Params) -> Any:
        """The record with this id, if it matches the query."""
        self._prepare_query(params)
        return self._answer_read(self.get_instance(id))

    def create(self, data: Any, params: Params) -> Any:
        """Create a record, or several from a list when `multi` allows it."""
        query = self._prepare_query(params, "create")
        many = isinstance(data, list)
        if many:
            self._check_multi("create")
        else:
            data = self._record_data(data, "create")
        serializer = self.get_serializer(data=data, many=many)
        # Validation only reads: it runs before the write transaction, which holds the whole
        # database on SQLite.
        self._check_valid(serializer)
        perform_create = self.perform_create
        with nullcontext() if opens_own_transaction(perform_create) else self._atomic():
            perform_create(serializer)
        if not many:
            self._answer_written(serializer.instance)
        if (
            query.select is None
            and serializer.instance is not None
            and self._representation() is None
        ):
            # The write serializer shows the new records as a fresh one would.
            return serializer.data
        result = self.represent(serializer.instance, many=many)
        if not many:
            # The record is shown: its fields, read again, would be built again.
            release_fields(serializer)
        return result

    def update(self, id: Any, data: Any, params: Params) -> Any:
        """Replace the record: writable fields not sent go back to their defaults."""
        if id is None or isinstance(data, list):
            raise BadRequest(REPLACE_MULTIPLE)
        data = self._without_id(self._record_data(data, "update"))
        self._prepare_query(params)
        with self._atomic():
            instance = self.get_instance(id, lock=True)
            self._check_write(instance)
            # The record keeps its id, whatever the body says: a required id field gets it.
            data[self._id_field()] = getattr(instance, self._id_lookup()[0])
            serializer = self.get_serializer(instance, data=data)
            self._check_valid(serializer)
            serializer.validated_data.update(self._replacement_defaults(serializer))
            self._save_update(serializer)
        self._answer_written(serializer.instance)
        return self.represent(serializer.instance)

    def patch(self, id: Any, data: Any, params: Params) -> Any:
        """Merge `data` into the record, or into every match of the query when id is None."""
        data = self._without_id(self._record_data(data, "patch"))
        if id is None:
            return self._patch_many(data, params)
        self._prepare_query(params)
        with self._atomic():
            instance = self.get_instance(id, lock=True)
            self._check_write(instance)
            serializer = self.get_serializer(instance, data=data, partial=True)
            self._check_valid(serializer)
            self._save_update(serializer)
        self._answer_written(serializer.instance)
        return self.represent(serializer.instance)

    def remove(self, id: Any, params: Params) -> Any:
        """Delete the record and return it, or every match of the query when id is None."""
        if id is None:
            return self._remove_many(params)
        self._prepare_query(params)
        with self._atomic():
            instance = self.get_instance(id, lock=True)
            self._check_write(instance)
            removed = self.represent(instance)
            self.perform_destroy(instance)
        return removed

    def _patch_many(self, data: Mapping[str, Any], params: Params) -> list[Any]:
        """
        Patch every record the query matches (`$limit` ignored), all or nothing.

        Returns the records found before the patch, read again after it, so a patch that
        changes a queried field still returns them.
        """
        self._check_multi("patch")
        query = self._prepare_query(params, "multi")
        with self._atomic():
            instances = self._find_instances(lock=True)
            updates = []
            for instance in instances:
                serializer = self.get_serializer(instance, data=data, partial=True)
                self._check_valid(serializer)
                updates.append(serializer)
            for serializer in sorted(
                updates, key=lambda serializer: cast(models.Model, serializer.instance).pk
            ):
                self._save_update(serializer)
        pks = [instance.pk for instance in instances]
        fresh = apply_select(self.get_queryset().filter(pk__in=pks), query)
        by_pk = {instance.pk: instance for instance in fresh}
        return self.represent([by_pk[pk] for pk in pks if pk in by_pk], many=True)

    def _remove_many(self, params: Params) -> list[Any]:
        """Delete every record the query matches (`$limit` ignored), all or nothing."""
        self._check_multi("remove")
        self._prepare_query(params, "multi")
        with self._atomic():
            instances = self._find_instances(lock=True)
            removed = self.represent(instances, many=True)
            for instance in sorted(instances, key=lambda instance: instance.pk):
                self.perform_destroy(instance)
        return removed

    # DRF's write hooks ------------------------------------------------------------------

    @own_transaction
    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """
        Save a new record (or records); override to add values (`serializer.save(...)`): an
        override runs in a transaction; here, one `INSERT` (`inserts_one_row`) is sent alone.
        """
        if isinstance(serializer, serializers.ModelSerializer) and inserts_one_row(serializer):
            insert_one_row(serializer)
        else:
            with self._atomic():
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

    def _prepare_query(self, params: Params, kind: str = "id") -> FeathersQuery:
        """
        Parse the query of `params` for this call into `self.call.query` and return it.

        `kind` is the kind of call (`QUERY_KINDS`): `find` pages, `multi` (patch and remove
        without an id) drops `$limit`, `id` reads the query as given, `create` reads `$select`
        only.
        """
        call = self.call
        if call is None or call.params is not params:
            # Other params than the call's (a custom method's helper, say): a call of its own,
            # on the same request.
            call = attach(
                CallContext(
                    self,
                    self.action or "find",
                    params=params,
                    request=call.request if call is not None else None,
                )
            )
        self._forget_call_tables()
        self._take_preconditions(params, kind)
        tables = self._get_field_tables()
        parsed = self.get_query_declaration().parse(
            params.query,
            fields=tables.query_fields,
            id_field=tables.id_field,
            selectable=tables.selectable,
            kind=kind,
        )
        call.query = parsed
        return parsed

    def get_instance(self, id: Any, *, lock: bool = False) -> models.Model:
        """
        The record with this id among those the query matches; 404 otherwise.

        `lock` (within a transaction): lock the record's row first, so that the record read
        is the one written.
        """
        path, model_field = self._id_lookup()
        try:
            value = convert_value(model_field, id, name=self._id_field())
        except BadRequest:
            raise self._not_found(id) from None
        if lock:
            lock_rows(self._model(), self._write_database(), **{path: value})
        queryset = self.filter_queryset(self.get_queryset())
        # The id is unique: no ORDER BY needed to pick the one match (`first()` would add one).
        found = list(queryset.filter(**{path: value})[:1])
        if not found:
            raise self._not_found(id)
        instance = found[0]
        self._check_record_permissions(instance)
        return instance

    def _find_instances(self, *, lock: bool = False) -> list[models.Model]:
        """
        The records the current query matches, `$skip` and `$sort` applied.

        `lock` (within a transaction): lock the rows of every match first, in primary-key
        order, then read them; a record that stopped matching, or that appeared, while the
        locks were awaited is left out.
        """
        queryset = self.filter_queryset(self.get_queryset())
        locked = None
        if lock:
            using = self._write_database()
            locked = lock_rows(self._model(), using, pk__in=queryset.using(using).values("pk"))
        _, rows = fetch_page(queryset, self.call.query, paginated=False)
        if locked is not None:
            rows = [instance for instance in rows if instance.pk in locked]
        for instance in rows:
            self._check_record_permissions(instance)
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
        self._prepare_query(params, "multi")
        return self.filter_queryset(self.get_queryset())

    def _check_record_permissions(self, instance: models.Model) -> None:
        """Check DRF object permissions on `instance` for HTTP calls."""
        if self.request is not None:
            self.check_object_permissions(self.request, instance)

    def _not_found(self, id: Any) -> NotFound:
        """The error for an id that matches no record."""
        return NotFound(f"No record found for id '{id}'")

    # Writing records --------------------------------------------------------------------

    def _atomic(self) -> transaction.Atomic:
        """A transaction on the database the model is written to."""
        return transaction.atomic(using=self._write_database())

    def _write_database(self) -> str:
        """The alias of the database the model is written to."""
        return router.db_for_write(self._model())

    def _event_database(self) -> str:
        """The database the model is written to: its commit releases the service's events."""
        return self._write_database()

    def _save_update(self, serializer: serializers.BaseSerializer) -> None:
        """
        `perform_update(serializer)`, its saves of the record writing only the columns sent
        (`validated_data`), those the save hooks changed and `auto_now` dates.
        """
        instance = serializer.instance
        assert instance is not None, "save_update() is given serializers of records"
        with saving_changes_only(instance, sent=serializer.validated_data):
            self.perform_update(serializer)

"""
Row writes that lose nothing when calls change one record at the same time.

    locked = lock_rows(Todo, "default", pk__in=matches.values("pk"))   # FOR UPDATE, by pk
    with saving_changes_only(todo, sent=serializer.validated_data):
        serializer.save()          # UPDATE todo SET <only the sent and changed columns>

`lock_rows` holds the rows until the transaction ends, taken in primary-key order so that two
writes over overlapping rows queue instead of deadlocking. `saving_changes_only` makes the
record's next saves write the columns the call was sent, those its save hooks changed
(serializer `update`, `perform_update`, the model's own `save`) and `auto_now` dates: a
column the call did not touch keeps what another call wrote to it meanwhile.
`inserts_one_row` tells a create that is a single `INSERT`, atomic without a transaction, and
`insert_one_row` saves it; a write hook marked `own_transaction` opens any transaction it needs
itself, as Django's `non_atomic_requests` marks a view.
"""

from __future__ import annotations

import contextlib
import copy
import functools
from collections.abc import Callable, Collection, Iterator
from typing import Any, TypeVar

from django.db import connections, models
from django.db.models import signals
from rest_framework import serializers
from rest_framework.utils import model_meta

__all__ = [
    "insert_one_row",
    "inserts_one_row",
    "lock_rows",
    "opens_own_transaction",
    "own_transaction",
    "saving_changes_only",
]

F = TypeVar("F", bound=Callable[..., Any])


def own_transaction(function: F) -> F:
    """
    Mark a write hook (`perform_create`) that opens the transaction its writes need itself:
    its caller runs it as it is instead of in `atomic()`. An override is not marked, unless
    it says so too.
    """
    function._own_transaction = True  # type: ignore[attr-defined]
    return function


def opens_own_transaction(hook: Callable[..., Any]) -> bool:
    """Whether `hook` (a function or a bound method) was marked `own_transaction`."""
    return getattr(hook, "_own_transaction", False)


def lock_rows(model: type[models.Model], using: str, **lookup: Any) -> set[Any] | None:
    """
    Lock the rows of `model` that `lookup` matches until the transaction ends, in primary-key
    order, and return their primary keys.

    None where the database has no row locks: SQLite takes the whole database for a write
    transaction instead (see the `transaction_mode` option in the deployment docs).
    """
    if not connections[using].features.has_select_for_update:
        return None
    rows = model._base_manager.using(using).filter(**lookup).order_by("pk").select_for_update()
    return set(rows.values_list("pk", flat=True))


@contextlib.contextmanager
def saving_changes_only(instance: models.Model, sent: Collection[str]) -> Iterator[None]:
    """
    Within the block, saves of `instance` without `update_fields` write only the columns named
    in `sent` (field names or attribute names, read at each save), those whose value changed
    since the block began or the last save, and `auto_now` dates. A save that would write
    nothing is skipped, as Django skips `save(update_fields=[])`.
    """
    model_save_base = type(instance).save_base
    before = _loaded_values(instance)

    def save_base(*args: Any, **kwargs: Any) -> None:
        # Signal receivers see the plain instance (one they may copy or pickle).
        del instance.__dict__["save_base"]
        try:
            if kwargs.get("update_fields") is None and not instance._state.adding and not args:
                names = _columns_to_write(instance, before, sent)
                if not names:
                    return
                kwargs["update_fields"] = names
            model_save_base(instance, *args, **kwargs)
            before.clear()
            before.update(_loaded_values(instance))
        finally:
            instance.__dict__["save_base"] = save_base

    instance.__dict__["save_base"] = save_base
    try:
        yield
    finally:
        instance.__dict__.pop("save_base", None)


def _writable_fields(instance: models.Model) -> list[models.Field]:
    return [
        field
        for field in instance._meta.concrete_fields
        if not field.primary_key and not getattr(field, "generated", False)
    ]


def _loaded_values(instance: models.Model) -> dict[str, Any]:
    values = instance.__dict__
    return {
        field.attname: copy.deepcopy(values[field.attname])
        for field in _writable_fields(instance)
        if field.attname in values
    }


def _columns_to_write(
    instance: models.Model, before: dict[str, Any], sent: Collection[str]
) -> frozenset[str]:
    values = instance.__dict__

    def changed(attname: str) -> bool:
        return attname in values and (attname not in before or before[attname] != values[attname])

    return frozenset(
        field.name
        for field in _writable_fields(instance)
        if field.name in sent
        or field.attname in sent
        or getattr(field, "auto_now", False)
        or changed(field.attname)
    )


def inserts_one_row(serializer: serializers.BaseSerializer) -> bool:
    """
    Whether `serializer.save()` of a new record is one `INSERT` and nothing else.

    True for DRF's own `ModelSerializer.create` on a model saved by Django's own `save`, through
    the plain manager's `create`, with no parent table, no save signal receivers and no
    to-many values: the statement is atomic by itself, and needs no transaction around it.
    Anything that may write more (an override, a receiver, a many-to-many set) answers False.
    """
    serializer_class = type(serializer)
    if not (
        isinstance(serializer, serializers.ModelSerializer)
        and serializer_class.save is serializers.BaseSerializer.save
        and serializer_class.create is serializers.ModelSerializer.create
    ):
        return False
    model = serializer.Meta.model
    # Classes are hashable; typeshed's `Hashable` check misreads class objects.
    to_many = _to_many_fields(model)  # type: ignore[arg-type]
    if to_many is None or not to_many.isdisjoint(serializer.validated_data):
        return False
    return not (signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model))


def insert_one_row(serializer: serializers.ModelSerializer) -> None:
    """
    `serializer.save()` for a new record of a serializer `inserts_one_row` accepted, validated
    and not yet shown: the `INSERT` DRF's `ModelSerializer.create` comes down to,
    `Model._default_manager.create(**validated_data)`, and the record in `serializer.instance`.

    DRF works out the model's field info twice on every create (`model_meta.get_field_info`)
    to refuse writes through nested serializers or dotted sources; a serializer whose writable
    fields include neither cannot make one, and is saved without that work. Any other is saved
    by `serializer.save()`, as DRF does.
    """
    for field in serializer.fields.values():
        if not field.read_only and (
            isinstance(field, serializers.BaseSerializer) or "." in (field.source or "")
        ):
            serializer.save()
            return
    model: type[models.Model] = serializer.Meta.model
    manager = model._default_manager
    try:
        instance = manager.create(**serializer.validated_data)
    except TypeError as exc:
        # As DRF words it: a writable field the model does not take.
        raise TypeError(
            f"Got a `TypeError` when calling `{model.__name__}.{manager.name}.create()`. This "
            "may be because you have a writable field on the serializer class that is not a "
            f"valid argument to `{model.__name__}.{manager.name}.create()`. You may need to "
            f"make the field read-only, or override the {type(serializer).__name__}.create() "
            f"method to handle this correctly.\nOriginal exception was:\n {exc}"
        ) from exc
    serializer.instance = instance


@functools.cache
def _to_many_fields(model: type[models.Model]) -> frozenset[str] | None:
    """The names `ModelSerializer.create` sets after the insert; None when saves may do more."""
    plain = (
        not model._meta.parents
        and model.save is models.Model.save
        and model.save_base is models.Model.save_base
        and type(model._default_manager).create is models.Manager.create
    )
    if not plain:
        return None
    relations = model_meta.get_field_info(model).relations
    return frozenset(name for name, relation in relations.items() if relation.to_many)

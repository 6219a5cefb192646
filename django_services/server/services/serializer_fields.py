"""
Serializer fields built once per `ModelSerializer` class, as DRF builds declared fields.

    serializer = PersonSerializer(person, context=context)
    reuse_built_fields(serializer)      # True: `serializer.fields` are clones of a template
    serializer.data

DRF builds the fields of a `ModelSerializer` on every instance: it reads the model's fields,
works out each one's class and arguments, and creates them. Declared fields, on the other
hand, are built once with the class and cloned for every instance (`copy.deepcopy`, which DRF
turns into a fresh `Field(*args, **kwargs)`). For a serializer class whose fields can only
come from its `Meta` and its declarations, `reuse_built_fields` does the same with the
generated fields: the first instance builds them, later instances get clones. The result is
the same fields, bound to the new instance, at about a third of the cost. The clone of one of
DRF's own column fields (`COLUMN_FIELDS`, `PrimaryKeyRelatedField`) is a shallow copy with a
list of validators of its own: such a field keeps nothing else an instance may change in place.

Once a write no longer needs its serializer, `release_fields` drops its fields, which refer
back to it: the serializer is then freed by reference counting, not by the collector.

The serializer's own validators (`Meta.validators`, or the unique-together and unique-for-date
validators DRF derives from the model) are kept the same way, when the class finds them as DRF
does (`VALIDATOR_HOOKS`): each instance gets a list of its own holding the validators the
first one built, which keep no state of an instance's.

A serializer class that overrides how DRF builds its fields (`__init__`, `get_fields`,
`get_field_names`, `build_field` and the other hooks in `FIELD_HOOKS`), which may read the
request, is left alone, as is every class outside `ModelSerializer`. Templates are dropped
when a Django setting changes (DRF reads `REST_FRAMEWORK` while building fields).
"""

from __future__ import annotations

import copy
import weakref
from typing import Any

from django.core.signals import setting_changed
from rest_framework import relations, serializers
from rest_framework.settings import api_settings
from rest_framework.utils.serializer_helpers import BindingDict

from ..._drf_compat import (
    cached_fields,
    drop_cached_fields,
    field_validators,
    set_cached_fields,
    set_field_validators,
)
from .representation import COLUMN_FIELDS, builds_fields_as_drf

__all__ = ["release_fields", "reuse_built_fields"]

#: Fields cloned by a shallow copy: their state is set in `__init__` and read afterwards.
_SHALLOW_CLONES: frozenset[type] = COLUMN_FIELDS | {relations.PrimaryKeyRelatedField}

# Weak keys: serializer classes made on the fly (one per call, say) must not pile up here.
#: Serializer class -> what its instances are given (`_Plan`), or None for a class whose
#: fields are built for each instance, as DRF does.
_plans: weakref.WeakKeyDictionary[type, _Plan | None] = weakref.WeakKeyDictionary()
_UNKNOWN: Any = object()

#: The serializer methods DRF finds a serializer's own validators with.
VALIDATOR_HOOKS = (
    "validators",
    "get_validators",
    "get_unique_together_validators",
    "get_unique_for_date_validators",
)


class _Plan:
    """The fields a `ModelSerializer` class built once, and its validators."""

    __slots__ = ("fields", "validators")

    def __init__(self, fields: tuple[tuple[str, Any, bool], ...]) -> None:
        #: (name, unbound field, whether a shallow copy clones it), from `get_fields()`.
        self.fields = fields
        #: What `get_validators()` returned once (read with the fields set, as DRF reads
        #: them); None for a class that finds them otherwise than DRF (`VALIDATOR_HOOKS`).
        self.validators: list[Any] | None = _UNKNOWN


def reuse_built_fields(serializer: serializers.BaseSerializer) -> bool:
    """
    Give `serializer` clones of the fields its class built once, instead of building them.

    Only for a `ModelSerializer` whose fields were not read yet and whose class builds them
    as DRF does; returns whether it did.
    """
    if cached_fields(serializer) is not None:
        return False
    cls = type(serializer)
    plan = _plans.get(cls, _UNKNOWN)
    if plan is _UNKNOWN:
        plan = _plans[cls] = _plan(serializer)
    if plan is None:
        return False
    if serializer.url_field_name is None:  # type: ignore[attr-defined]
        # What `get_fields()` would have set on the instance.
        serializer.url_field_name = api_settings.URL_FIELD_NAME  # type: ignore[attr-defined]
    fields = BindingDict(serializer)
    for name, field, shallow in plan.fields:
        fields[name] = _clone(field) if shallow else copy.deepcopy(field)
    set_cached_fields(serializer, fields)
    if field_validators(serializer) is None:
        validators = plan.validators
        if validators is _UNKNOWN:
            validators = plan.validators = (
                serializer.get_validators() if _finds_validators_as_drf(cls) else None
            )
        if validators is not None:
            set_field_validators(serializer, list(validators))
    return True


def _plan(serializer: serializers.BaseSerializer) -> _Plan | None:
    """The plan of the class of `serializer`, built with it; None if it builds its own."""
    cls = type(serializer)
    if not isinstance(serializer, serializers.ModelSerializer) or not builds_fields_as_drf(cls):
        return None
    return _Plan(
        tuple(
            (name, field, type(field) in _SHALLOW_CLONES)
            for name, field in serializer.get_fields().items()
        )
    )


def release_fields(serializer: serializers.BaseSerializer) -> None:
    """
    Drop the fields of a serializer nothing else will read, so that it is freed at once.

    A serializer and its bound fields refer to each other (`fields`, `field.parent`): left
    to the garbage collector, that cycle keeps its context (the request, the service) and its
    record alive until a collection, whose pauses add up under load.
    """
    drop_cached_fields(serializer)


def _finds_validators_as_drf(cls: type) -> bool:
    return all(
        getattr(cls, name) is getattr(serializers.ModelSerializer, name) for name in VALIDATOR_HOOKS
    )


def _clone(field: Any) -> Any:
    """A fresh, unbound copy of a template field of `_SHALLOW_CLONES`."""
    # `copy.copy()` without its dispatch: a new instance of the class with the same
    # attributes (DRF's `Field.__new__` only records arguments the copy overwrites).
    clone = object.__new__(type(field))
    vars(clone).update(vars(field))
    validators = field_validators(field)
    if validators is not None:
        set_field_validators(clone, list(validators))
    return clone


def _drop_templates(**kwargs: Any) -> None:
    _plans.clear()


setting_changed.connect(_drop_templates)

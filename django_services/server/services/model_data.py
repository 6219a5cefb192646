"""
What the writes of a `ModelService` are sent: checked before anything is written.

    data = service._without_id(service._record_data(data, "patch"))   # an object, id dropped
    service._check_valid(serializer)       # 400 with `errors` per field; a taken id is 409
    service._replacement_defaults(serializer)   # what `update` writes for fields not sent
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from rest_framework import serializers

from ...errors import BadRequest, Conflict

__all__ = ["ModelDataMixin"]


class ModelDataMixin:
    """Checks of the data a model service's writes receive (see `ModelService`)."""

    if TYPE_CHECKING:
        # Provided by `ModelOptionsMixin`, which `ModelService` combines this mixin with.
        def _id_field(self) -> str: ...

        def _model(self) -> type[models.Model]: ...

        def _id_lookup(self) -> tuple[str, models.Field]: ...

    def _record_data(self, data: Any, method: str) -> Mapping[str, Any]:
        """Check that the data of a single-record write is an object."""
        if not isinstance(data, Mapping):
            kind = "an array" if isinstance(data, list) else type(data).__name__
            raise BadRequest(f"The data for '{method}' must be an object, not {kind}.")
        return data

    def _without_id(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The data without the id field: an id in the body of update or patch is ignored."""
        id_field = self._id_field()
        return {key: value for key, value in data.items() if key != id_field}

    def _check_valid(self, serializer: serializers.BaseSerializer) -> None:
        """
        Validate, raising 400 with `errors` per field; a taken id is 409 Conflict.
        """
        if serializer.is_valid():
            return
        errors: Any = serializer.errors
        entries: Iterable[tuple[int | None, Any]]
        if isinstance(serializer, serializers.ListSerializer):
            if not isinstance(errors, Mapping):
                # Before DRF 3.18.1, a list with an entry per item: by index, as DRF now has it.
                errors = {index: item for index, item in enumerate(errors) if item}
            entries = errors.items()
        else:
            entries = [(None, errors)]
        id_field = self._id_field()
        for index, item_errors in entries:
            field_errors = item_errors.get(id_field, ()) if isinstance(item_errors, Mapping) else ()
            if any(getattr(error, "code", None) == "unique" for error in field_errors):
                data = serializer.initial_data
                value = data if index is None else data[index]
                raise Conflict(f"A record with {id_field} '{value[id_field]}' already exists")
        raise serializers.ValidationError(errors)

    def _replacement_defaults(self, serializer: serializers.BaseSerializer) -> dict[str, Any]:
        """
        What `update` writes for writable fields missing from the data: the model field's
        default (null when it has none and is nullable), an empty set for many-to-many.
        """
        model = self._model()
        id_path, _ = self._id_lookup()
        defaults: dict[str, Any] = {}
        # The services' serializers are `Serializer`s (a `ModelSerializer` by default).
        for field in cast(serializers.Serializer, serializer).fields.values():
            # Bound fields have their source (the field name unless given).
            source = cast(str, field.source)
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

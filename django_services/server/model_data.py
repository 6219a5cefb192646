"""
What the writes of a `ModelService` are sent: checked before anything is written.

    data = service.without_id(service.record_data(data, "patch"))   # an object, id dropped
    service.check_valid(serializer)       # 400 with `errors` per field; a taken id is 409
    service.get_replacement_defaults(serializer)   # what `update` writes for fields not sent
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from rest_framework import serializers

from ..errors import BadRequest, Conflict

__all__ = ["ModelDataMixin"]


class ModelDataMixin:
    """Checks of the data a model service's writes receive (see `ModelService`)."""

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
        model = self.get_model()
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

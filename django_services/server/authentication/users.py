"""
The users service: Feathers' entity service, with Django's password hashing.

    class UserService(authentication.UserService):
        queryset = User.objects.filter(is_active=True)     # default: every user
        serializer_class = UserSerializer                  # default: id, login fields, password

    DJANGO_SERVICES = {"SERVICES": {"users": "accounts.services.UserService"}}

The password is hashed with Django's hashers (`PASSWORD_HASHERS`) on create, update and patch,
before the write transaction opens (hashing is slow on purpose, and a write transaction holds
the whole database on SQLite), checked by `AUTH_PASSWORD_VALIDATORS`, and is a private field:
never sent, never queryable, never sortable, never selectable. The authentication service
sends the user through this service's `get`, so what it shows is what a login shows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from ..model_services import ModelService
from ..query_set import QueryDeclaration
from .entity import login_field_names

__all__ = ["UserSerializer", "UserService"]


class UserSerializer(serializers.ModelSerializer):
    """
    The default users serializer: the primary key, the login and email fields, the password.

    The raw password is taken as given (no trimming, no model `max_length`: the stored value
    is the hash) and is write-only.
    """

    password = serializers.CharField(
        write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )

    @classmethod
    def for_model(cls, model: type) -> type[UserSerializer]:
        """Return this serializer for `model` (the user model), with its login fields."""
        fields = [*login_field_names(model), "password"]
        meta = type("Meta", (), {"model": model, "fields": fields})
        return type(f"{model.__name__}Serializer", (cls,), {"Meta": meta})


class UserService(ModelService):
    """
    A `ModelService` over the user model whose `password_field` is hashed and private.

    **Options**, besides `ModelService`'s: **password_field** - the serializer field holding
    the raw password (`"password"`). It is private (write-only) whatever `private_fields`
    says, so it is never sent, queried, sorted or selected.
    """

    password_field: str = "password"

    #: The raw passwords of the call in progress and their hashes, made before the write
    #: transaction opens; each is used once.
    _advance_hashes: list[tuple[str, str] | None] | None = None

    def get_queryset(self) -> Any:
        """The `queryset` option, or every user of `AUTH_USER_MODEL`."""
        if self.queryset is None:
            return get_user_model()._default_manager.all()
        return super().get_queryset()

    def get_serializer_class(self) -> Any:
        """The `serializer_class` option, or `UserSerializer` for `AUTH_USER_MODEL`."""
        if self.serializer_class is None:
            return UserSerializer.for_model(get_user_model())
        return super().get_serializer_class()

    def get_query_declaration(self) -> QueryDeclaration:
        """The query declaration, the password field among its private fields whatever
        `private_fields` says."""
        declaration = super().get_query_declaration()
        if self.password_field not in declaration.private_fields:
            declaration.private_fields = (*declaration.private_fields, self.password_field)
        return declaration

    def create(self, data: Any, params: Any) -> Any:
        """Create users, their passwords hashed before the write transaction opens."""
        with self.hashing_in_advance(data):
            return super().create(data, params)

    def update(self, id: Any, data: Any, params: Any) -> Any:
        """Replace a user, a new password hashed before the write transaction opens."""
        with self.hashing_in_advance(data):
            return super().update(id, data, params)

    def patch(self, id: Any, data: Any, params: Any) -> Any:
        """Patch users, a new password hashed before the write transaction opens."""
        with self.hashing_in_advance(data):
            return super().patch(id, data, params)

    @contextlib.contextmanager
    def hashing_in_advance(self, data: Any) -> Iterator[None]:
        """Hash the raw passwords of `data` (a record or a list) now, for `hash_password`."""
        records = data if isinstance(data, list) else [data]
        hashes: list[tuple[str, str] | None] = []
        for record in records:
            raw = record.get(self.password_field) if isinstance(record, Mapping) else None
            hashes.append((raw, make_password(raw)) if isinstance(raw, str) else None)
        self._advance_hashes = hashes
        try:
            yield
        finally:
            self._advance_hashes = None

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Hash the password, then save the new user."""
        self.hash_password(serializer)
        super().perform_create(serializer)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Hash the password when one is given (a patch without one keeps it), then save."""
        self.hash_password(serializer)
        super().perform_update(serializer)

    def hash_password(self, serializer: serializers.BaseSerializer) -> None:
        """Replace the raw password of the validated data by its hash, after validating it."""
        records = serializer.validated_data
        instances: list[Any] = [serializer.instance]
        if isinstance(records, list):
            instances = [None] * len(records)
        else:
            records = [records]
        source = self.password_source(serializer)
        for index, (record, instance) in enumerate(zip(records, instances, strict=True)):
            if record.get(source) is None:
                continue
            raw = record[source]
            try:
                password_validation.validate_password(raw, user=instance)
            except DjangoValidationError as exc:
                raise serializers.ValidationError({self.password_field: exc.messages}) from None
            record[source] = self._advance_hash(index, raw) or make_password(raw)

    def _advance_hash(self, index: int, raw: str) -> str | None:
        """The hash made in advance for record `index`, if it is this password's (once)."""
        hashes = self._advance_hashes
        if hashes is None or index >= len(hashes) or hashes[index] is None:
            return None
        advance = hashes[index]
        if advance is None:
            return None
        made_for, hashed = advance
        hashes[index] = None  # a multi patch hashes each record's copy with its own salt
        return hashed if made_for == raw else None

    def password_source(self, serializer: serializers.BaseSerializer) -> str:
        """The attribute the password field writes (its `source`)."""
        field = _child(serializer).fields.get(self.password_field)
        return field.source if field is not None else self.password_field


def _child(serializer: serializers.BaseSerializer) -> Any:
    return getattr(serializer, "child", serializer)

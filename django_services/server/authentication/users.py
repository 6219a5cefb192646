"""
The users service: Feathers' entity service, with Django's password hashing.

    class UserService(authentication.UserService):
        queryset = User.objects.filter(is_active=True)     # default: every user
        serializer_class = UserSerializer                  # default: id, login fields, password

    DJANGO_SERVICES = {"SERVICES": {"users": "accounts.services.UserService"}}

Accounts belong to their owners: anyone may sign up (`create`); a caller who is not staff
sees and changes only their own account (`restrict_to_owner`: another's id is 404, a `find`
answers the caller's record alone), anonymous calls but `create` are 401
(`AccountPermission`), and an owner changing their own password proves the current one
(`old_password_field`), as Django's password change form asks. Staff (`is_staff`) see and
change every account, and set another's password without proof, as Django's admin does.
Internal calls (`provider=None`) are not narrowed.

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
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from django_services import clock

from ..services.model_services import ModelService
from ..services.query_set import QueryDeclaration
from .entity import login_field_names
from .permissions import AccountPermission, is_owner, is_staff

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


PASSWORD_PROOF_MISSING = "Give your current password to change it."
PASSWORD_PROOF_WRONG = "Your old password was entered incorrectly."


class UserService(ModelService):
    """
    A `ModelService` over the user model whose `password_field` is hashed and private, and
    whose accounts belong to their owners (see the module).

    **Options**, besides `ModelService`'s:

    * **password_field** - the serializer field holding the raw password (`"password"`). It
      is private (write-only) whatever `private_fields` says, so it is never sent, queried,
      sorted or selected.
    * **old_password_field** - the data field in which an owner changing their own password
      gives the current one (`"oldPassword"`); it is never stored.
    * **password_login_age** - seconds (None: never) during which a token's login (its
      `iat`) proves the password instead. Only for projects whose every token comes from a
      password login: a token a refresh, a session or a strategy of your own issued is new
      without any password having been given.
    * **permission_classes** - `[AccountPermission]`: anyone signs up, only owners and staff
      write an account.

    **Hooks**: `restrict_to_owner(queryset)` narrows what an external call sees; override it
    (returning the queryset) to let users see each other, `AccountPermission` still keeping
    writes to owners and staff.
    """

    password_field: str = "password"
    old_password_field: str = "oldPassword"
    password_login_age: float | None = None
    permission_classes: Any = [AccountPermission]

    #: The raw passwords of the call in progress and their hashes, made before the write
    #: transaction opens; each is used once.
    _advance_hashes: list[tuple[str, str] | None] | None = None
    #: Whether the caller of the write in progress proved their current password.
    _password_proven: bool = False
    #: Whether the caller of the write in progress gave a current password at all.
    _proof_given: bool = False

    def get_queryset(self) -> Any:
        """The `queryset` option, or every user of `AUTH_USER_MODEL`, as `restrict_to_owner`
        narrows it."""
        if self.queryset is None:
            queryset = get_user_model()._default_manager.all()
        else:
            queryset = super().get_queryset()
        return self.restrict_to_owner(queryset)

    def restrict_to_owner(self, queryset: Any) -> Any:
        """
        The accounts an external call sees: staff every one, a logged-in user their own,
        nobody else any. Another's id is thus 404, as if it did not exist (a 403 would tell
        which ids are accounts). Internal calls (`provider=None`) see them all.
        """
        params = self.params
        if params is None or params.provider is None:
            return queryset
        user = getattr(self.request, "user", None)
        if is_staff(user):
            return queryset
        if user is None or not user.is_authenticated:
            return queryset.none()
        return queryset.filter(pk=user.pk)

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
        data = self.take_password_proof(data)
        with self.hashing_in_advance(data):
            return super().update(id, data, params)

    def patch(self, id: Any, data: Any, params: Any) -> Any:
        """Patch users, a new password hashed before the write transaction opens."""
        data = self.take_password_proof(data)
        with self.hashing_in_advance(data):
            return super().patch(id, data, params)

    def take_password_proof(self, data: Any) -> Any:
        """
        Return `data` without its `old_password_field`, having checked it (and the login's
        age) against the caller's password, before the write transaction opens.
        """
        proof = None
        if isinstance(data, Mapping) and self.old_password_field in data:
            data = dict(data)
            proof = data.pop(self.old_password_field)
        self._proof_given = proof is not None
        self._password_proven = self._proves_password(proof)
        return data

    def _proves_password(self, proof: Any) -> bool:
        user = getattr(self.request, "user", None)
        if user is None or not user.is_authenticated:
            return False
        if self.password_login_age is not None:
            auth = getattr(self.request, "auth", None)
            payload = auth.get("payload") if isinstance(auth, Mapping) else None
            issued = payload.get("iat") if isinstance(payload, Mapping) else None
            if (
                isinstance(issued, (int, float))
                and not isinstance(issued, bool)
                and clock.time() - issued <= self.password_login_age
            ):
                return True
        if not isinstance(proof, str):
            return False
        # Not `user.check_password()`: it saves an upgraded hash, a write outside this call's.
        return check_password(proof, user.password)

    def check_password_proof(self, serializer: serializers.BaseSerializer) -> None:
        """
        Refuse (400, naming `old_password_field`) an external call's change of the caller's
        own password without proof of the current one. Staff set others' without it.
        """
        params = self.params
        if params is None or params.provider is None or self._password_proven:
            return
        record = serializer.validated_data
        if not isinstance(record, Mapping):
            return
        if record.get(self.password_source(serializer)) is None:
            return
        if not is_owner(getattr(self.request, "user", None), serializer.instance):
            return
        message = PASSWORD_PROOF_WRONG if self._proof_given else PASSWORD_PROOF_MISSING
        raise serializers.ValidationError({self.old_password_field: [message]})

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
        """Hash the password when one is given (a patch without one keeps it), then save; a
        change of the caller's own password needs the current one (`check_password_proof`)."""
        self.check_password_proof(serializer)
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

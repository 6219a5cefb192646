"""
The authenticated entity: the user model, and the id tokens carry as `sub`.

    subject_for(user)       # "42", the value of ENTITY_ID (the pk by default), as a string
    user_for_subject("42")  # the active user, or a 401 NotAuthenticated
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models

from .config import authentication_settings
from .exceptions import NotAuthenticated

__all__ = [
    "USER_NOT_FOUND",
    "entity_id_field",
    "login_field_names",
    "subject_for",
    "user_for_subject",
]

#: The 401 message for a token whose user is gone or was deactivated.
USER_NOT_FOUND = "User not found or inactive"


def entity_id_field() -> str:
    """Return the name of the user model field written as `sub` (`ENTITY_ID`, or the pk)."""
    return authentication_settings()["ENTITY_ID"] or get_user_model()._meta.pk.name


def login_field_names(model: Any) -> list[str]:
    """Return the user model's pk, login and email field names (columns only, no password)."""
    names = [model._meta.pk.name, model.USERNAME_FIELD, model.get_email_field_name()]
    return [name for name in dict.fromkeys(names) if _is_column(model, name) and name != "password"]


def _is_column(model: Any, name: str) -> bool:
    try:
        return bool(model._meta.get_field(name).concrete)
    except FieldDoesNotExist:
        return False


def subject_for(user: Any) -> str:
    """Return the `sub` claim for `user`."""
    return str(getattr(user, entity_id_field()))


def user_for_subject(subject: Any) -> Any:
    """Return the active user a token's `sub` names; a missing or inactive user is a 401."""
    model = get_user_model()
    name = entity_id_field()
    try:
        field = model._meta.get_field(name)
        value = field.to_python(subject) if isinstance(field, models.Field) else subject
        user = model._default_manager.get(**{name: value})
    except (ValidationError, ValueError, TypeError, OverflowError, model.DoesNotExist):
        raise NotAuthenticated(USER_NOT_FOUND) from None
    # Django's backends refuse inactive users; a token must not outlive that decision.
    if not getattr(user, "is_active", True):
        raise NotAuthenticated(USER_NOT_FOUND)
    return user

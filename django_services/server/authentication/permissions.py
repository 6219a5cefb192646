"""
Who may do what on the users service: anyone signs up, an account is its owner's and staff's.

    class UserService(authentication.UserService):
        permission_classes = [AccountPermission]     # the default

`AccountPermission` lets anyone `create` (sign up), and every other method only to a logged-in
user; a record is written (`update`, `patch`, `remove`) only by its owner or by staff
(`is_staff`). Who sees which records is the service's queryset's decision: `UserService`
narrows it to the caller's own account for a user who is not staff (`restrict_to_owner`).
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

__all__ = ["READ_METHODS", "AccountPermission", "is_owner", "is_staff"]

#: The methods that only read records; any other method on a record is a write.
READ_METHODS = frozenset({"find", "get"})


def is_staff(user: Any) -> bool:
    """Whether `user` is a logged-in member of staff (Django's `is_staff`)."""
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def is_owner(user: Any, record: Any) -> bool:
    """Whether `record` (a user-model instance) is the account of `user`, who is logged in."""
    if user is None or not user.is_authenticated or record is None:
        return False
    return type(record)._meta.concrete_model is type(user)._meta.concrete_model and (
        record.pk == user.pk
    )


class AccountPermission(BasePermission):
    """
    The users service's default: anyone may sign up (`create`); every other method needs a
    logged-in user; an account is changed or removed (any method on a record but `find` and
    `get`, custom methods included) only by its owner or by staff.

    Reads are left to the queryset (`UserService.restrict_to_owner`), so a project that lets
    users see each other (a directory) widens the queryset and keeps this permission for
    writes.
    """

    def has_permission(self, request: Any, view: Any) -> bool:
        if view.action == "create":
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        if view.action in READ_METHODS:
            return True
        return is_staff(request.user) or is_owner(request.user, obj)

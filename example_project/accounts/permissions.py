"""Who may call the users service."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission


class SignUpOrAuthenticated(BasePermission):
    """Anyone may create an account; every other method needs a logged-in user."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return view.action == "create" or bool(request.user and request.user.is_authenticated)


class ChangesOwnAccountOnly(BasePermission):
    """Users can read every account, but only update, patch or remove their own."""

    message = "You can only change your own account."

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        return view.action in ("find", "get") or obj.pk == request.user.pk

"""Who may change a message."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission


class AuthorCanChange(BasePermission):
    """Everyone reads every message; only its author updates, patches or removes it."""

    message = "Only the author of a message can change it."

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        return view.action in ("find", "get") or obj.user_id == request.user.pk

"""Who may call the notes service."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import IsAuthenticated


class IsRouteUser(IsAuthenticated):
    """The logged-in user is the one the path names: `users/<their id>/notes`."""

    message = "You can only read and write your own notes."

    def has_permission(self, request: Any, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        return view.kwargs.get("userId") == str(request.user.pk)

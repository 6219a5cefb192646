"""
The `users` service: sign up without a token; an account is its owner's.

    POST  /users        {"email": "ada@example.com", "password": "..."}   -> 201, no password
    GET   /users        Authorization: Bearer <accessToken>               -> a page: your account
    GET   /users/2      Authorization: Bearer <accessToken>               -> user 2's id and email
    PATCH /users/1      {"password": "...", "oldPassword": "..."}         -> your own account only

The package's `UserService` keeps each account to its owner (`AccountPermission`, and a
queryset narrowed to the caller's account). The chat names each message's author by email, so
this project widens one read: a logged-in user may `get` any account by its id. A `find` still
lists only the caller's own, and writes stay the owner's, staff's included.
"""

from __future__ import annotations

from typing import Any

from django_services.server.authentication import UserService as BaseUserService

from .models import User
from .serializers import UserSerializer


class UserService(BaseUserService):
    queryset = User.objects.filter(is_active=True)
    serializer_class = UserSerializer
    paginate = {"default": 10, "max": 50}

    def restrict_to_owner(self, queryset: Any) -> Any:
        user = getattr(self.request, "user", None)
        params = self.params
        if params is None or params.provider is None or user is None:
            return super().restrict_to_owner(queryset)  # internal calls see every account
        if not user.is_authenticated:
            return super().restrict_to_owner(queryset)
        if self.action == "get":
            return queryset
        # Staff included: the demo account is staff (for the admin), and the page shows its
        # password, so staff get no more of the API than anyone.
        return queryset.filter(pk=user.pk)

"""
The `users` service: sign up without a token, everything else with one.

    POST /users        {"email": "ada@example.com", "password": "..."}   -> 201, no password
    GET  /users        Authorization: Bearer <accessToken>               -> a page of users
"""

from __future__ import annotations

from django_services.server.authentication import UserService as BaseUserService

from .models import User
from .permissions import ChangesOwnAccountOnly, SignUpOrAuthenticated
from .serializers import UserSerializer


class UserService(BaseUserService):
    queryset = User.objects.filter(is_active=True)
    serializer_class = UserSerializer
    permission_classes = [SignUpOrAuthenticated, ChangesOwnAccountOnly]
    paginate = {"default": 10, "max": 50}

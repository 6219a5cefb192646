"""How users are sent and received: the password is write-only, and hashed by the service."""

from __future__ import annotations

from django_services.server.authentication.users import UserSerializer as BaseUserSerializer

from .models import User


class UserSerializer(BaseUserSerializer):
    class Meta:
        model = User
        fields = ["id", "email", "password"]

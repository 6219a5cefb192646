"""Services of the authentication tests: one that tells who is calling, and users services."""

from __future__ import annotations

from rest_framework.permissions import IsAuthenticated

from django_services.server.authentication import SessionAuthentication, UserService
from django_services.server.services.service import Service


class WhoAmIService(Service):
    """Answers the caller's email and `params.authentication` (create: an unsafe method)."""

    permission_classes = [IsAuthenticated]

    def find(self, params):
        return {"email": params.user.email, "authentication": params.authentication}

    def create(self, data, params):
        return self.find(params)


class RequestSeenService(WhoAmIService):
    """Also answers the `Authorization` header of the request its authenticators read."""

    def find(self, params):
        return {**super().find(params), "authorization": self.request.headers.get("Authorization")}


class SessionOnlyService(WhoAmIService):
    authentication_classes = [SessionAuthentication]


class RecentLoginUserService(UserService):
    """A users service in which a login of the last five minutes proves the password."""

    password_login_age = 300


class DirectoryUserService(UserService):
    """Users see each other; writes stay the owner's and staff's (`AccountPermission`)."""

    def restrict_to_owner(self, queryset):
        return queryset

"""
Services the remotes call on the project's own server: the "remote" is this test project,
reached over loopback (live_server) or in-process.
"""

from __future__ import annotations

import threading
import time

from django.core.cache import caches
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from django_services.errors import NotAuthenticated
from django_services.server import Service, service_method
from django_services.server.authentication import JWTAuthentication
from django_services.server.authentication.service import AuthenticationService


def received(params):
    """The credentials a call carried, as the remote saw them."""
    request = params.request
    return {
        "authorization": params.headers.get("authorization"),
        "cookies": sorted(request.COOKIES),
        "csrf_header": params.headers.get("x-csrftoken"),
        "origin": params.headers.get("origin"),
        "referer": params.headers.get("referer"),
    }


class CallerService(Service):
    """Needs a user (JWT or session); tells who called and with what."""

    permission_classes = [IsAuthenticated]

    def find(self, params):
        return {
            "email": params.user.email,
            "strategy": params.authentication["strategy"],
            **received(params),
        }

    def create(self, data, params):
        return {**self.find(params), "data": data}

    @service_method
    def stamp(self, data, params):
        return {**self.find(params), "stamped": data}


class EchoService(Service):
    """Public: what a call carried. `create` also sets a cookie, which no caller may get back."""

    authentication_classes = []

    def find(self, params):
        return received(params)

    def create(self, data, params):
        response = Response(received(params), status=201)
        response.set_cookie("planted", "by-the-remote")
        return response


class RejectingService(Service):
    """Refuses every token: 401, always."""

    authentication_classes = [JWTAuthentication]

    def find(self, params):
        raise NotAuthenticated("This service refuses every token")


#: What `RacingService` does: refuse the token `refuse` after storing `replacement` in the cache.
RACE = {}


class RacingService(Service):
    """
    Refuses the token `RACE["refuse"]`, as a remote that revoked it would, after putting
    `RACE["replacement"]` in the cache: as if another process had logged in again meanwhile.
    """

    authentication_classes = [JWTAuthentication]
    permission_classes = [IsAuthenticated]

    def find(self, params):
        token = params.authentication["accessToken"]
        if token == RACE.get("refuse"):
            caches[RACE["cache"]].set(RACE["key"], RACE["replacement"])
            raise NotAuthenticated("Token revoked")
        return {"email": params.user.email, "authorization": params.headers.get("authorization")}


class LoginLog:
    """The logins the authentication service answered, in order (thread-safe)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.entries = []

    def add(self, data):
        with self._lock:
            self.entries.append(data)

    def clear(self):
        with self._lock:
            self.entries.clear()

    def __len__(self):
        return len(self.entries)


LOGINS = LoginLog()

#: How long each login takes, in seconds: a remote hashing passwords with a production hasher.
LOGIN_DELAY = {"seconds": 0.0}


class CountingAuthenticationService(AuthenticationService):
    """The authentication service, recording each login it answers."""

    def create(self, data, params):
        time.sleep(LOGIN_DELAY["seconds"])
        result = super().create(data, params)
        LOGINS.add({"strategy": data.get("strategy"), "email": data.get("email")})
        return result

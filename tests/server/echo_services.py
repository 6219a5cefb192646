"""Services used by the server tests, wired per test through `DJANGO_SERVICES["SERVICES"]`."""

from __future__ import annotations

from django.core import exceptions as django_exceptions
from django.http import Http404
from rest_framework import authentication, exceptions, permissions, serializers, throttling
from rest_framework.response import Response

from django_services import errors
from django_services.server import Service, service_method


def describe(method, params, **extra):
    """What an echo method answers: the method and everything it received."""
    return {
        "method": method,
        **extra,
        "query": params.query,
        "route": params.route,
        "provider": params.provider,
    }


class EchoService(Service):
    """Every standard method, two custom ones; answers what it received."""

    authentication_classes = []

    def find(self, params):
        return describe("find", params)

    def get(self, id, params):
        return describe("get", params, id=id)

    def create(self, data, params):
        return describe("create", params, data=data)

    def update(self, id, data, params):
        return describe("update", params, id=id, data=data)

    def patch(self, id, data, params):
        return describe("patch", params, id=id, data=data)

    def remove(self, id, params):
        return describe("remove", params, id=id)

    @service_method
    def shout(self, data, params):
        return describe("shout", params, data=data)

    @service_method
    def whisper(self, data, params):
        return describe("whisper", params, data=data)


class ReadsTheBody(permissions.BasePermission):
    """A permission that reads the body before the call does."""

    def has_permission(self, request, view):
        request.read_by_permission = request.data
        return True


class RequestDataService(Service):
    """Answers what DRF's request gives of the body inside the call."""

    authentication_classes = []

    def create(self, data, params):
        request = self.request
        return {
            "data": request.data,
            "same": request.data is data,
            "post": dict(request.POST),
        }


class PermissionReadsDataService(Service):
    """A permission reads the body first: the call gets what it read."""

    authentication_classes = []
    permission_classes = [ReadsTheBody]

    def create(self, data, params):
        return {"data": data, "same": self.request.read_by_permission is data}


class ReadOnlyService(Service):
    """Implements find and get only: every other method is 405."""

    authentication_classes = []

    def find(self, params):
        return []

    def get(self, id, params):
        return {"id": id}


class NoneService(Service):
    """Every method returns None: 204 without a body."""

    authentication_classes = []

    def find(self, params):
        return None

    def get(self, id, params):
        return None

    def create(self, data, params):
        return None

    @service_method
    def ping(self, data, params):
        return None


class ParamsService(Service):
    """Answers the params it received, with the user's email."""

    authentication_classes = [authentication.SessionAuthentication]

    def find(self, params):
        return {
            "query": params.query,
            "route": params.route,
            "headers": params.headers,
            "provider": params.provider,
            "user": getattr(params.user, "email", None),
            "authentication": params.authentication,
        }


class ProtectedService(Service):
    """Needs an authenticated user; the session class offers no challenge of its own."""

    authentication_classes = [authentication.SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    def find(self, params):
        return {"user": params.user.email}


class BasicProtectedService(ProtectedService):
    authentication_classes = [authentication.BasicAuthentication]


class StaffOnlyService(ProtectedService):
    permission_classes = [permissions.IsAdminUser]


class OneRequestPerMinute(throttling.AnonRateThrottle):
    rate = "1/min"


class ThrottledService(Service):
    authentication_classes = []
    throttle_classes = [OneRequestPerMinute]

    def find(self, params):
        return []


class AgeSerializer(serializers.Serializer):
    name = serializers.CharField()
    age = serializers.IntegerField(min_value=0)


class _Teapot(exceptions.APIException):
    status_code = 418
    default_detail = "I'm a teapot"


def _invalid_age():
    AgeSerializer(data={"age": -1}).is_valid(raise_exception=True)


#: What `FailingService.get(<key>)` raises (a callable is called, an exception raised).
FAILURES = {
    "python": ZeroDivisionError("division by zero"),
    "feathers-conflict": errors.Conflict("Already there", {"field": "name"}),
    "feathers-general": errors.GeneralError("Told you"),
    "drf-validation": _invalid_age,
    "drf-validation-list": exceptions.ValidationError("Nope"),
    "django-validation": django_exceptions.ValidationError({"name": ["Too short."]}),
    "django-validation-plain": django_exceptions.ValidationError("Plainly wrong."),
    "http404": Http404("Nothing here"),
    "drf-not-found": exceptions.NotFound(),
    "django-permission": django_exceptions.PermissionDenied(),
    "drf-permission": exceptions.PermissionDenied(),
    "drf-not-authenticated": exceptions.NotAuthenticated(),
    "drf-throttled": exceptions.Throttled(wait=2.5),
    "drf-parse": exceptions.ParseError(),
    "drf-method": exceptions.MethodNotAllowed("GET"),
    "drf-unsupported": exceptions.UnsupportedMediaType("text/csv"),
    "drf-api": exceptions.APIException(),
    "drf-teapot": _Teapot(),
    "suspicious": django_exceptions.SuspiciousOperation("Odd"),
}


class FailingService(Service):
    """`get(<failure>)` raises the exception of FAILURES[<failure>]."""

    authentication_classes = []

    def get(self, id, params):
        failure = FAILURES[id]
        if isinstance(failure, BaseException):
            raise failure
        failure()

    @service_method
    def respond(self, data, params):
        return Response({"raw": True}, status=202, headers={"X-Custom": "yes"})


class DefaultAuthenticationService(Service):
    """Protected, with the authentication classes of `DJANGO_SERVICES` (none set here)."""

    permission_classes = [permissions.IsAuthenticated]

    def find(self, params):
        return {"user": params.user.email, "authentication": params.authentication}

    def create(self, data, params):
        return {"user": params.user.email}


class PublicDefaultService(Service):
    """Public (the default permission), with the default authentication classes."""

    def find(self, params):
        return {"user": getattr(params.user, "email", None)}

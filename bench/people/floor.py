"""
Creates that keep only part of DRF, to measure what DRF's own steps cost (`bench.drf_floor`).

    POST /floor/plain-validated       a plain view, DRF's validation at its cheapest
    POST /floor/apiview               DRF's `APIView` lifecycle, the body created as sent
    POST /floor/apiview-validated     the same, DRF's validation at its cheapest
    POST /floor/apiview-serializer    the same, a `PersonSerializer` per request (DRF's docs)

"DRF's validation at its cheapest" is `run_validation()` of one serializer whose fields were
built once for the process: no serializer is built per request. A service cannot do that (a
serializer holds its call's data, context and errors), so it is a floor, not a design.
Each view answers what the plain view answers: the new person, 201.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Person
from .serializers import PersonSerializer

#: One serializer, its fields built and bound once (read-only use: `run_validation`).
_SHARED = PersonSerializer()


def _shown(person: Person) -> dict[str, Any]:
    return {"id": person.pk, "name": person.name, "age": person.age, "created": person.created}


@csrf_exempt
def plain_validated(request: HttpRequest) -> HttpResponse:
    """The plain view's create, its body validated by DRF at its cheapest."""
    validated = _SHARED.run_validation(json.loads(request.body))
    return JsonResponse(_shown(Person.objects.create(**validated)), status=201)


class BareAPIView(APIView):
    """DRF's request lifecycle and nothing of the project's: no authentication or permission."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes: list[Any] = []
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]

    def post(self, request: Request) -> Response:
        data = request.data
        person = Person.objects.create(name=data["name"], age=data["age"])
        return Response(_shown(person), status=201)


class ValidatedAPIView(BareAPIView):
    def post(self, request: Request) -> Response:
        validated = _SHARED.run_validation(request.data)
        return Response(_shown(Person.objects.create(**validated)), status=201)


class SerializerAPIView(BareAPIView):
    def post(self, request: Request) -> Response:
        serializer = PersonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data, status=201)


urlpatterns = [
    path("plain-validated", plain_validated),
    path("apiview", BareAPIView.as_view()),
    path("apiview-validated", ValidatedAPIView.as_view()),
    path("apiview-serializer", SerializerAPIView.as_view()),
]

"""
The floor: plain Django views answering the same data from the same ORM queries, with the same
total count, serialized by `.values()` and `JsonResponse`.

    GET  /plain/people?age__gt=30&sort=-age&limit=10
    GET  /plain/people?limit=10&offset=90000
    GET  /plain/people/42
    POST /plain/people {"name": "Ada", "age": 36}
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from .models import Person

FIELDS = ("id", "name", "age", "created")
MAX_LIMIT = 50


def _bad_request(message: str) -> JsonResponse:
    return JsonResponse({"message": message}, status=400)


@csrf_exempt
def people(request: HttpRequest) -> HttpResponse:
    """Find (GET) or create (POST) people."""
    if request.method == "POST":
        return _create(request)
    params = request.GET
    try:
        limit = min(int(params.get("limit", 10)), MAX_LIMIT)
        offset = int(params.get("offset", 0))
        queryset = Person.objects.all()
        if "age__gt" in params:
            queryset = queryset.filter(age__gt=int(params["age__gt"]))
    except ValueError:
        return _bad_request("limit, offset and age__gt must be integers")
    if "name" in params:
        queryset = queryset.filter(name=params["name"])
    sort = params.get("sort")
    # Ties in the order of the sort, as django-feathers orders them.
    ordering = {"age": ("age", "id"), "-age": ("-age", "-id")}.get(sort, ("id",))
    queryset = queryset.order_by(*ordering)
    rows = list(queryset.values(*FIELDS)[offset : offset + limit])
    total = queryset.count()
    return JsonResponse({"total": total, "limit": limit, "skip": offset, "data": rows})


def _create(request: HttpRequest) -> HttpResponse:
    try:
        data = json.loads(request.body)
        name, age = data["name"], data["age"]
    except (ValueError, KeyError, TypeError):
        return _bad_request("the body must be a JSON object with name and age")
    if not isinstance(name, str) or not isinstance(age, int) or len(name) > 100:
        return _bad_request("name must be a string, age an integer")
    person = Person.objects.create(name=name, age=age)
    return JsonResponse(
        {"id": person.pk, "name": person.name, "age": person.age, "created": person.created},
        status=201,
    )


@require_GET
def person(request: HttpRequest, pk: int) -> HttpResponse:
    """Get one person by id."""
    row = Person.objects.filter(pk=pk).values(*FIELDS).first()
    if row is None:
        return JsonResponse({"message": f"No record found for id '{pk}'"}, status=404)
    return JsonResponse(row)


def ready(request: HttpRequest) -> HttpResponse:
    """What the runner polls to know that a server is up."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("people", people),
    path("people/<int:pk>", person),
    path("ready", ready),
]

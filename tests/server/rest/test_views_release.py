"""
A service's HTTP call leaves no reference cycle behind: once the server closes the response,
the request, the response, the service and its call are freed at once (reference counting),
not by the garbage collector, whose collections pause every request under load.

A create too: its serializer and its fields refer to each other, and the serializer's
context to the request and the service, a cycle the service breaks once the serializer is
done with. Patches and updates are left out: they keep theirs.
"""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test import RequestFactory

from django_services.server import ModelService
from tests.server.model_services import PersonSerializer
from tests.testapp.models import Person

# Writes publish their events on commit: the test's writes must commit.
pytestmark = pytest.mark.django_db(transaction=True)

HERE = "tests.server.rest.test_views_release."


class PeopleService(ModelService):
    """The framework's defaults: JWT and session authentication, a paginated find."""

    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    paginate = {"default": 10, "max": 50}


@pytest.fixture
def people(serve):
    serve({"people": HERE + "PeopleService"})
    return [Person.objects.create(name=name, age=age) for name, age in [("Ada", 36), ("Bob", 7)]]


@pytest.fixture
def without_collector() -> Iterator[None]:
    """Only reference counting frees objects while the test runs."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def serve_once(environ: dict[str, Any]) -> tuple[int, Any, list[weakref.ref]]:
    """
    Serve one request as a WSGI server does (iterate the response, then close it) and return
    the status, the JSON body and weak references to the objects of the call.
    """
    statuses: list[str] = []
    response = WSGIHandler()(environ, lambda status, headers: statuses.append(status))
    context = response.renderer_context
    service = context["view"]
    # Not the WSGIRequest: Django's AuthenticationMiddleware gives it a lazy user that refers
    # back to it, a cycle of Django's own.
    objects = [response, context["request"], service]
    if service.params is not None:
        objects.append(service.params)
    references = [weakref.ref(item) for item in objects]
    del context, service, objects
    content = b"".join(response)
    response.close()
    del response
    return int(statuses[0].split()[0]), json.loads(content or b"null"), references


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/people?age[$gt]=5&$sort[age]=-1", 200),
        ("get", "/people?$select[]=name", 200),
        ("get", "/people/{id}", 200),
        ("delete", "/people/{id}", 200),
        ("get", "/people?age[$gt]=old", 400),
        ("get", "/people/0", 404),
    ],
)
def test_a_call_is_freed_when_its_response_is_closed(
    people, without_collector, method, path, status
):
    request = getattr(RequestFactory(), method)(path.format(id=people[0].pk))

    code, body, references = serve_once(request.environ)

    assert code == status, body
    alive = [reference() for reference in references if reference() is not None]
    assert alive == []


def test_a_create_is_freed_when_its_response_is_closed(people, without_collector):
    request = RequestFactory().post(
        "/people", data=json.dumps({"name": "Cy", "age": 3}), content_type="application/json"
    )

    code, body, references = serve_once(request.environ)

    assert (code, body["name"], body["age"]) == (201, "Cy", 3)
    alive = [reference() for reference in references if reference() is not None]
    assert alive == []


def test_a_created_record_shown_by_its_serializer_keeps_its_fields(serve):
    """Without a representation, the create's serializer shows the record it made."""
    serve({"people": HERE + "SerializerShownService"})
    request = RequestFactory().post(
        "/people", data=json.dumps({"name": "Cy", "age": 3}), content_type="application/json"
    )

    code, body, _ = serve_once(request.environ)

    assert code == 201
    assert (body["name"], body["age"]) == ("Cy", 3)


class SerializerShownService(PeopleService):
    representation_class = None


def test_the_service_drops_the_call_but_the_response_keeps_its_data(people):
    response = WSGIHandler()(
        RequestFactory().get(f"/people/{people[0].pk}").environ, lambda *args: None
    )
    service = response.renderer_context["view"]
    assert service.call is not None and service.request is not None

    response.close()

    assert (service.call, service.request, service.params) == (None, None, None)
    assert not hasattr(service, "response")
    assert (response.data["id"], response.data["name"]) == (people[0].pk, "Ada")
    assert json.loads(response.content) == response.data

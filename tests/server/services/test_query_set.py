"""
The query declaration of a service (`query_class`): the fields, sorting, private fields,
operators and paging its queries may use, and the hooks the filter backend and the paginator
fetch the query through.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.filters import BaseFilterBackend

from django_services.server import (
    FeathersPagination,
    FeathersQueryFilter,
    ModelService,
    QueryDeclaration,
)
from tests.server.http import M, assert_error, body
from tests.server.model_services import PersonSerializer, SampleSerializer
from tests.testapp.models import Person, Sample

pytestmark = pytest.mark.django_db

HERE = __name__ + "."


class SampleQuery(QueryDeclaration):
    fields = {"char": ["$like", "$ne"], "integer": None}
    sort_fields = ["integer"]
    private_fields = ["secret"]
    operators = ["$like"]
    paginate = {"default": 2, "max": 3}


class DeclaredSampleService(ModelService):
    authentication_classes = []
    queryset = Sample.objects.all()
    serializer_class = SampleSerializer
    query_class = SampleQuery


class SeenQueries(BaseFilterBackend):
    """A project's backend, placed before the Feathers one: it fetches the same query."""

    seen: list = []

    def filter_queryset(self, request, queryset, view):
        self.seen.append(FeathersQueryFilter().get_query(request, view))
        return queryset


class ObservedPersonService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    filter_backends = [SeenQueries, FeathersQueryFilter]


class ListsPagination(FeathersPagination):
    """Answers plain lists, whatever the service declares."""

    def get_query_declaration(self, view):
        return QueryDeclaration(paginate=False)


class OneByOnePersonService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    pagination_class = ListsPagination
    paginate = {"default": 1}


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "samples": HERE + "DeclaredSampleService",
            "shorthand": {
                "class": M + "SampleService",
                "query_fields": {"char": ["$like", "$ne"], "integer": None},
                "sort_fields": ["integer"],
                "operators": ["$like"],
                "paginate": {"default": 2, "max": 3},
            },
            "observed": HERE + "ObservedPersonService",
            "one-by-one": HERE + "OneByOnePersonService",
        }
    )


@pytest.fixture
def samples():
    for index, char in enumerate(["apple", "apricot", "banana", "cherry"]):
        Sample.objects.create(char=char, integer=index, secret=f"s{index}")


@pytest.mark.parametrize("path", ["/samples", "/shorthand"])
def test_the_declaration_decides_what_queries_may_do(api, samples, path):
    page = body(api.get(path, {"char[$like]": "ap%", "$sort[integer]": "-1"}))
    assert [row["char"] for row in page["data"]] == ["apricot", "apple"]
    assert (page["total"], page["limit"]) == (2, 2)
    assert "secret" not in page["data"][0]
    assert body(api.get(path, {"$limit": "10"}))["limit"] == 3

    assert_error(
        api.get(path, {"char[$gt]": "b"}),
        "BadRequest",
        "Invalid query for field 'char': $gt is not allowed on it (use $like, $ne).",
        400,
        "bad-request",
    )
    for field in ("secret", "text"):
        assert_error(
            api.get(path, {field: "x"}),
            "BadRequest",
            f"Invalid query field '{field}': it does not exist or cannot be queried.",
            400,
            "bad-request",
        )


def test_a_service_declares_its_query_in_one_place():
    class Both(DeclaredSampleService):
        paginate = False

    with pytest.raises(ImproperlyConfigured, match="sets query_class and paginate"):
        Both()._validate_options()


def test_a_field_cannot_take_an_operator_the_service_does_not_accept():
    class Unknown(SampleQuery):
        fields = {"char": ["$ilike"]}

    class Service(DeclaredSampleService):
        query_class = Unknown

    with pytest.raises(ImproperlyConfigured, match="operators of query field 'char'"):
        Service()._validate_options()


def test_an_unknown_option_is_refused():
    with pytest.raises(TypeError, match="no option 'query_fields'"):
        QueryDeclaration(query_fields=["name"])


def test_a_backend_before_the_feathers_one_fetches_the_parsed_query(api):
    SeenQueries.seen.clear()
    Person.objects.create(name="Ann", age=30)

    assert body(api.get("/observed", {"age[$gt]": "20"}))[0]["name"] == "Ann"

    (query,) = SeenQueries.seen
    assert [condition.operator for condition in query.conditions.conditions] == ["$gt"]


def test_the_paginator_reads_the_declaration_through_its_hook(api):
    for name in ("Ann", "Bob"):
        Person.objects.create(name=name)

    # The service's `paginate` still limits the query: one record, as a list.
    assert [row["name"] for row in body(api.get("/one-by-one", {"$sort[name]": "1"}))] == ["Ann"]

"""
Operators a project registers, end to end over real HTTP: enabled per service like the built-in
optional ones, checked per field, and refused where they are not enabled.
"""

from __future__ import annotations

import pytest
import requests
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact

from django_services.errors import BadRequest
from django_services.query import LookupOperator, Operator, operators, register_operator
from django_services.server import ModelService, QueryDeclaration
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture
from tests.server.http import M
from tests.server.model_services import PersonSerializer
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db(transaction=True)

HERE = __name__ + "."


class StartsWith(Operator):
    """`name[$startswith]=Al`: the field begins with the text (case-sensitive)."""

    name = "$startswith"
    optional = True

    def filter(self, query_field, value):
        return Q(**{f"{query_field.path}__startswith": value})

    def excludes_null(self, value):
        return True


def multiple_of(query_field, value):
    """`age[$multipleof]=5`: the number divides by the value."""
    return Q(Exact(Mod(F(query_field.path), value), 0))


def between(query_field, value):
    """`age[$between][]=20&age[$between][]=30`: within the two values, both included."""
    if len(value) != 2:
        raise BadRequest(f"$between of field '{query_field.name}' takes two values.")
    return Q(**{f"{query_field.path}__range": value})


class OperatorPersonService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    operators = ["$startswith", "$multipleof", "$between"]


class NamesStartOnlyQuery(QueryDeclaration):
    """`name` takes `$startswith` and `$ne` only; the others every enabled operator."""

    fields = {"name": ["$startswith", "$ne"], "age": None, "created": None}
    operators = ["$startswith", "$multipleof", "$between"]


class NamesStartOnlyService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    query_class = NamesStartOnlyQuery


@pytest.fixture(autouse=True)
def registered():
    register_operator(StartsWith)
    register_operator("$multipleof", optional=True, null=False)(multiple_of)
    register_operator(LookupOperator("$iexact", "iexact"))
    register_operator("$between", optional=True, null=False, many=True)(between)
    yield
    for name in ("$startswith", "$multipleof", "$iexact", "$between"):
        operators.unregister(name)


@pytest.fixture(autouse=True)
def wire(serve, registered):
    serve(
        {
            "people": {"class": HERE + "OperatorPersonService", "paginate": {"default": 10}},
            "names": HERE + "NamesStartOnlyService",
            "plain": M + "PersonService",
        }
    )


@pytest.fixture
def get(live_server):
    session = requests.Session()
    session.headers["Accept"] = "application/json"
    yield lambda path: session.get(live_server.url + path, timeout=10)
    session.close()


@pytest.fixture
def people(transactional_db):
    for name, age in [("Alice", 20), ("Albert", 35), ("Bob", 30), ("Fred", 41), ("Nil", None)]:
        Person.objects.create(name=name, age=age)


def names(response):
    assert response.status_code == 200, response.text
    data = response.json()
    rows = data["data"] if isinstance(data, dict) else data
    return sorted(person["name"] for person in rows)


def test_a_registered_class_filters_and_combines_with_the_built_in_operators(get, people):
    assert names(get("/people?name[$startswith]=Al")) == ["Albert", "Alice"]
    assert names(get("/people?name[$startswith]=Al&age[$gt]=25")) == ["Albert"]
    assert names(get("/people?$or[0][name][$startswith]=B&$or[1][age][$lt]=21")) == [
        "Alice",
        "Bob",
    ]


def test_a_registered_function_gets_the_value_converted_by_the_field(get, people):
    assert names(get("/people?age[$multipleof]=10")) == ["Alice", "Bob"]
    response = get("/people?age[$multipleof]=ten")
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid value 'ten' for field 'age': expected an integer."
    )
    response = get("/people?age[$multipleof]=")
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid value for field 'age': $multipleof needs a value, not null."
    )


def test_an_operator_of_many_values_gets_each_converted(get, people):
    assert names(get("/people?age[$between][]=25&age[$between][]=35")) == ["Albert", "Bob"]
    response = get("/people?age[$between][]=25&age[$between][]=old")
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid value 'old' for field 'age': expected an integer."
    )
    response = get("/people?age[$between][]=25")
    assert response.status_code == 400
    assert response.json()["message"] == "$between of field 'age' takes two values."


def test_an_operator_that_is_not_optional_is_on_for_every_service(get, people):
    assert names(get("/plain?name[$iexact]=ALICE")) == ["Alice"]


def test_an_optional_operator_is_refused_where_it_is_not_enabled(get, people):
    response = get("/plain?name[$startswith]=Al")
    assert response.status_code == 400
    assert response.json()["message"] == "Invalid query parameter $startswith"
    assert response.json()["data"] == {"$startswith": "Al"}


def test_unknown_operators_are_still_refused(get, people):
    response = get("/people?name[$regex]=A.*")
    assert response.status_code == 400
    assert response.json()["message"] == "Invalid query parameter $regex"


def test_a_field_takes_only_the_operators_it_allows(get, people):
    assert names(get("/names?name[$startswith]=Al")) == ["Albert", "Alice"]
    assert names(get("/names?name[$ne]=Bob&age[$multipleof]=10")) == ["Alice"]
    response = get("/names?name[$gt]=B")
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid query for field 'name': $gt is not allowed on it (use $ne, $startswith)."
    )


def test_private_fields_stay_out_of_reach_of_registered_operators(get, serve, people):
    serve({"people": {"class": HERE + "OperatorPersonService", "private_fields": ["name"]}})
    response = get("/people?name[$startswith]=Al")
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid query field 'name': it does not exist or cannot be queried."
    )


def test_a_sort_on_a_field_a_registered_operator_keeps_free_of_null(get, people):
    response = get("/people?name[$startswith]=A&$sort[name]=-1")
    assert [person["name"] for person in response.json()["data"]] == ["Alice", "Albert"]

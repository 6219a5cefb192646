"""
`paginate = {..., "estimate_total_above": N}`: PostgreSQL's planner estimate as the `total` of
large finds, the exact count otherwise and on every other database.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from django_services.server.rest.views import service_view
from django_services.server.services.pagination import planner_estimate
from tests.server.http import M, body
from tests.server.model_services import PersonService
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db

ROWS = 20_000
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the planner estimate is PostgreSQL's"
)


@pytest.fixture
def people():
    """20,000 people aged 0 to 99, the table analysed as autovacuum would leave it."""
    Person.objects.bulk_create(
        (Person(name=f"p{index}", age=index % 100) for index in range(ROWS)), batch_size=5000
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {Person._meta.db_table}")


@pytest.fixture
def estimating(serve):
    serve(
        {
            "people": {
                "class": M + "PersonService",
                "paginate": {"default": 10, "max": 50, "estimate_total_above": 5000},
            }
        }
    )


def find(api, query):
    with CaptureQueriesContext(connection) as queries:
        response = api.get(f"/people?{query}")
    assert response.status_code == 200, response.content
    return body(response), [entry["sql"] for entry in queries.captured_queries]


def counted(statements):
    return [sql for sql in statements if "COUNT(" in sql.upper()]


@postgresql_only
@pytest.mark.parametrize("query", ["age[$lt]=60", "age[$lt]=60&$limit=0", "$skip=100"])
def test_a_large_match_answers_the_estimate_without_counting(api, people, estimating, query):
    page, statements = find(api, query)
    exact = Person.objects.filter(age__lt=60).count() if "age" in query else ROWS
    assert abs(page["total"] - exact) <= exact * 0.1
    assert counted(statements) == []
    assert any(sql.startswith("EXPLAIN") for sql in statements)
    assert len(page["data"]) == (0 if "$limit=0" in query else 10)


@postgresql_only
def test_a_match_under_the_threshold_is_counted_exactly(api, people, estimating):
    page, statements = find(api, "age[$lt]=10")
    assert page["total"] == Person.objects.filter(age__lt=10).count() == 2000
    assert len(counted(statements)) == 1


@postgresql_only
def test_the_estimate_stays_in_line_with_the_page(api, people, estimating):
    page, statements = find(api, "age[$lt]=60&$skip=11990&$limit=10")
    assert len(page["data"]) == 10
    assert page["total"] >= 12_000
    assert counted(statements) == []

    page, statements = find(api, f"age[$lt]=60&$skip={ROWS - 5}&$limit=50")
    assert page["data"] == []
    assert abs(page["total"] - 12_000) <= 1200
    assert counted(statements) == []


@postgresql_only
def test_planner_estimate_reads_the_plan_of_the_filtered_queryset(people):
    everyone = planner_estimate(Person.objects.order_by("-age"))
    few = planner_estimate(Person.objects.filter(age__lt=5))
    assert abs(everyone - ROWS) <= ROWS * 0.05
    assert 0 < few < ROWS / 10


def test_other_databases_and_services_without_the_option_always_count(api, people, serve):
    serve({"people": {"class": M + "PersonService", "paginate": {"default": 10, "max": 50}}})
    page, statements = find(api, "age[$lt]=60")
    assert page["total"] == Person.objects.filter(age__lt=60).count() == 12_000
    assert len(counted(statements)) == 1
    assert not any(sql.startswith("EXPLAIN") for sql in statements)

    if connection.vendor != "postgresql":
        assert planner_estimate(Person.objects.all()) is None
        serve(
            {
                "people": {
                    "class": M + "PersonService",
                    "paginate": {"default": 10, "max": 50, "estimate_total_above": 0},
                }
            }
        )
        page, statements = find(api, "age[$lt]=60")
        assert page["total"] == 12_000
        assert len(counted(statements)) == 1


def test_the_option_in_the_paginate_setting(api, people, serve):
    serve(
        {"people": M + "PersonService"},
        PAGINATE={"default": 5, "max": 20, "estimate_total_above": 5000},
    )
    page, statements = find(api, "age[$lt]=60&$limit=100")
    assert (page["limit"], len(page["data"])) == (20, 20)
    assert counted(statements) == ([] if connection.vendor == "postgresql" else statements[-1:])


@pytest.mark.parametrize("threshold", [-1, "1000", 1.5, True])
def test_a_wrong_threshold_is_refused_when_the_view_is_built(threshold):
    with pytest.raises(ImproperlyConfigured, match="estimate_total_above"):
        service_view(PersonService, paginate={"default": 10, "estimate_total_above": threshold})

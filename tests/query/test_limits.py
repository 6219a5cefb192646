"""
Query size limits over real HTTP: refused with a 400 naming the limit before the database sees
the query, and what the limits allow runs on every database.
"""

from __future__ import annotations

import pytest
import requests

from django_services.query.codec import stringify
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture
from tests.server.http import M

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {"people": {"class": M + "PersonService", "paginate": {"default": 5, "max": 50}}},
        OPERATORS=["$like", "$ilike"],
    )


@pytest.fixture
def get(live_server):
    session = requests.Session()
    session.headers["Accept"] = "application/json"
    yield lambda query_string: session.get(f"{live_server.url}/people?{query_string}", timeout=30)
    session.close()


@pytest.fixture
def people(transactional_db):
    from tests.testapp.models import Person

    Person.objects.bulk_create(Person(name=f"P{age}", age=age) for age in range(10))


def assert_bad_request(response, message):
    assert response.status_code == 400, response.text[:300]
    assert response.json()["name"] == "BadRequest"
    assert response.json()["message"] == message


def test_an_or_of_999_entries_is_refused_naming_the_limit(get, people):
    response = get("&".join(f"$or[{index}][age]={index}" for index in range(999)))
    assert_bad_request(response, "$or has 999 entries: at most 100 are allowed (QUERY_OR_LIMIT).")


def test_an_and_of_999_entries_is_refused_naming_the_limit(get, people):
    response = get("&".join(f"$and[{index}][age][$ne]={index}" for index in range(999)))
    assert_bad_request(response, "$and has 999 entries: at most 100 are allowed (QUERY_AND_LIMIT).")


def test_a_like_pattern_of_60000_characters_is_refused_naming_the_limit(get, people):
    response = get(stringify({"name": {"$like": "%" + "a" * 59_998 + "%"}}))
    assert_bad_request(
        response,
        "The $like pattern of field 'name' has 60000 characters: at most 1000 are allowed "
        "(QUERY_LIKE_LENGTH_LIMIT).",
    )


def test_an_in_beyond_its_limit_is_refused_naming_it(get, people, settings):
    settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "QUERY_IN_LIMIT": 3}
    response = get(stringify({"age": {"$nin": [1, 2, 3, 4]}}))
    assert_bad_request(
        response,
        "$nin of field 'age' has 4 values: at most 3 are allowed (QUERY_IN_LIMIT).",
    )
    assert get(stringify({"age": {"$in": [1, 2, 3]}})).json()["total"] == 3


def test_the_limits_follow_the_settings(get, people, settings):
    settings.DJANGO_SERVICES = {**settings.DJANGO_SERVICES, "QUERY_OR_LIMIT": 2}
    response = get(stringify({"$or": [{"age": 1}, {"age": 2}, {"age": 3}]}))
    assert_bad_request(response, "$or has 3 entries: at most 2 are allowed (QUERY_OR_LIMIT).")


def test_the_largest_queries_the_limits_allow_run_on_the_database(get, people):
    widest_or = get("&".join(f"$or[{index}][age]={index % 10}" for index in range(100)))
    assert widest_or.status_code == 200, widest_or.text[:300]
    assert widest_or.json()["total"] == 10

    # Every $or entry holds an $or of nine: 900 conditions, nested, in one WHERE clause.
    nested = get(
        "&".join(
            f"$or[{outer}][$or][{inner}][age]={inner}" for outer in range(100) for inner in range(9)
        )
    )
    assert nested.status_code == 200, nested.text[:300]
    assert nested.json()["total"] == 9

    # An $and of 100 entries, each an $or of nine, plus the widest pattern.
    widest_and = get(
        "&".join(
            f"$and[{outer}][$or][{inner}][age][$ne]={100 + outer}"
            for outer in range(100)
            for inner in range(9)
        )
        + "&"
        + stringify({"name": {"$ilike": "p" + "%" * 999}})
    )
    assert widest_and.status_code == 200, widest_and.text[:300]
    assert widest_and.json()["total"] == 10


def test_python_callers_meet_the_same_limits(people):
    from django_services.errors import BadRequest
    from django_services.server.pipeline.params import Params
    from tests.server.model_services import PersonService

    service = PersonService()
    with pytest.raises(BadRequest, match="QUERY_OR_LIMIT"):
        service.find(Params(query={"$or": [{"age": index} for index in range(101)]}))

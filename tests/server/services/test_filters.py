"""
The query language through model services (CONTRACT §3, §4; Feathers' `syntax.ts`): filters,
operators, pagination, API field names, private fields, errors, and the SQL it costs.
"""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.server.http import M, assert_error, body, send
from tests.testapp.models import Message, Person, Sample

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "people": M + "PersonService",
            "paged": {"class": M + "PersonService", "paginate": {"default": 1, "max": 2}},
            "messages": M + "MessageService",
            "samples": M + "SampleService",
            "limited": {
                "class": M + "PersonService",
                "query_fields": ["name", "age"],
                "sort_fields": ["age"],
            },
        }
    )


@pytest.fixture
def people():
    return {
        name: Person.objects.create(name=name, age=age)
        for name, age in (("Bob", 25), ("Alice", 19), ("Doug", 32))
    }


def names(response):
    answer = body(response)
    rows = answer["data"] if isinstance(answer, dict) else answer
    return [row["name"] for row in rows]


def bad_request(response, message, **rest):
    assert_error(response, "BadRequest", message, 400, "bad-request", **rest)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("name=Alice", ["Alice"]),
        ("name=Alice&age=20", []),
        ("$sort[name]=1", ["Alice", "Bob", "Doug"]),
        ("$sort[name]=-1", ["Doug", "Bob", "Alice"]),
        ("$sort[name]=1&$limit=2", ["Alice", "Bob"]),
        ("$sort[name]=1&$limit=0", []),
        ("$sort[name]=1&$skip=1", ["Bob", "Doug"]),
        ("$or[0][name]=Alice&$or[1][name]=Bob&$sort[name]=1", ["Alice", "Bob"]),
        ("name[$in][]=Alice&name[$in][]=Bob&$sort[name]=1", ["Alice", "Bob"]),
        ("name[$in][0]=Alice&name[$in][1]=Bob&$sort[name]=1", ["Alice", "Bob"]),
        ("name[$in]=Alice", ["Alice"]),
        ("name[$nin][]=Alice&name[$nin][]=Bob", ["Doug"]),
        ("age[$lt]=30&$sort[name]=1", ["Alice", "Bob"]),
        ("age[$lte]=25&$sort[name]=1", ["Alice", "Bob"]),
        ("age[$gt]=30", ["Doug"]),
        ("age[$gte]=25&$sort[name]=1", ["Bob", "Doug"]),
        ("age[$ne]=25&$sort[name]=1", ["Alice", "Doug"]),
        ("age[$gt]=18&age[$lt]=30&$sort[name]=1", ["Alice", "Bob"]),
        (
            "$or[0][name]=Doug&$or[1][age][$gte]=18&$or[1][age][$lt]=25&$sort[name]=1",
            ["Alice", "Doug"],
        ),
        ("$and[0][age]=19", ["Alice"]),
        ("$and[0][$or][0][name]=Alice", ["Alice"]),
        ("$sort[age]=-1&$sort[name]=1", ["Doug", "Bob", "Alice"]),
        ("$sort[age]=1&$limit=1&$skip=1", ["Bob"]),
        ("created=false&$sort[age]=1&$limit=abc", ["Alice", "Bob", "Doug"]),
        ("$sort[age]=1&$skip=-4", ["Alice", "Bob", "Doug"]),
        ("$limit=2.7&$sort[age]=1", ["Alice", "Bob"]),
    ],
)
def test_syntax(api, people, query, expected):
    assert names(api.get(f"/people?{query}")) == expected


def test_select(api, people):
    answer = body(api.get("/people?name=Alice&$select[]=name"))
    assert answer == [{"id": people["Alice"].pk, "name": "Alice"}]
    answer = body(api.get("/people?name=Alice&$select=age"))
    assert answer == [{"id": people["Alice"].pk, "age": 19}]


def test_select_on_a_queryset_with_select_related(api, people):
    # SampleService's queryset is `select_related("owner")`, which Django may not defer.
    sample = Sample.objects.create(char="alpha", integer=7, owner=people["Bob"])
    answer = body(api.get("/samples?$select[]=char&$select[]=ownerName"))
    assert answer == [{"id": sample.pk, "char": "alpha", "ownerName": "Bob"}]
    assert body(api.get("/samples?$select=integer")) == [{"id": sample.pk, "integer": 7}]


def test_pagination(api, people):
    response = api.get("/paged?$sort[name]=-1")
    answer = body(response)
    assert list(answer) == ["total", "limit", "skip", "data"]
    assert (answer["total"], answer["limit"], answer["skip"]) == (3, 1, 0)
    assert [row["name"] for row in answer["data"]] == ["Doug"]
    assert body(api.get("/paged?name=Doug"))["total"] == 1


def test_pagination_caps_the_limit(api, people):
    answer = body(api.get("/paged?$skip=1&$limit=4&$sort[name]=-1"))
    assert (answer["total"], answer["limit"], answer["skip"]) == (3, 2, 1)
    assert [row["name"] for row in answer["data"]] == ["Bob", "Alice"]


def test_pagination_with_limit_zero_counts_only(api, people):
    with CaptureQueriesContext(connection) as queries:
        answer = body(api.get("/paged?$limit=0"))
    assert answer == {"total": 3, "limit": 0, "skip": 0, "data": []}
    assert len(queries) == 1
    assert "COUNT" in queries[0]["sql"].upper()


@pytest.mark.parametrize(
    ("query", "limit", "skip"),
    [("$limit=-1", 1, 0), ("$limit=x", 1, 0), ("$skip=x", 1, 0), ("$skip=-3", 1, 0)],
)
def test_invalid_limit_and_skip_fall_back(api, people, query, limit, skip):
    answer = body(api.get(f"/paged?{query}"))
    assert (answer["limit"], answer["skip"], answer["total"]) == (limit, skip, 3)


def test_pagination_cannot_be_switched_off_from_the_query(api, people):
    bad_request(
        api.get("/paged?paginate=false"),
        "Invalid query field 'paginate': it does not exist or cannot be queried.",
    )
    bad_request(api.get("/paged?$paginate=false"), "Invalid filter value $paginate")


def test_pagination_default_from_settings(api, serve, people):
    serve({"people": M + "PersonService"}, PAGINATE={"default": 2, "max": 5})
    answer = body(api.get("/people?$sort[age]=1"))
    assert (answer["total"], answer["limit"], names_of(answer)) == (3, 2, ["Alice", "Bob"])
    serve({"people": {"class": M + "PersonService", "paginate": False}}, PAGINATE={"default": 2})
    assert isinstance(body(api.get("/people")), list)


def names_of(page):
    return [row["name"] for row in page["data"]]


def test_a_page_is_one_count_and_one_select(api):
    for index in range(5):
        Person.objects.create(name=f"P{index}", age=index)
    with CaptureQueriesContext(connection) as queries:
        answer = body(api.get("/paged?$skip=1&$sort[age]=1&age[$gte]=0&$select[]=name"))
    assert (answer["total"], names_of(answer)) == (5, ["P1"])
    statements = sorted(query["sql"].split()[0].upper() for query in queries)
    assert statements == ["SELECT", "SELECT"]
    selects = [query["sql"] for query in queries if "COUNT" not in query["sql"].upper()]
    assert len(selects) == 1
    assert '"age"' not in selects[0].split("FROM")[0]  # $select narrowed the columns


def test_an_unpaginated_find_is_one_select(api, people):
    with CaptureQueriesContext(connection) as queries:
        assert names(api.get("/people?age[$gt]=20&$sort[name]=1")) == ["Bob", "Doug"]
    assert len(queries) == 1


@pytest.mark.parametrize(
    ("query", "message", "data"),
    [
        ("$foo=1", "Invalid filter value $foo", None),
        ("name[$like]=a", "Invalid query parameter $like", {"$like": "a"}),
        ("name[$exists]=true", "Invalid query parameter $exists", {"$exists": "true"}),
        ("$or[0][$and][0][name]=a", "Invalid query parameter $and", {"$and": [{"name": "a"}]}),
    ],
)
def test_feathers_query_errors(api, people, query, message, data):
    response = api.get(f"/people?{query}")
    if data is None:
        bad_request(response, message)
    else:
        bad_request(response, message, data=data)


@pytest.mark.parametrize(
    ("query", "needle"),
    [
        ("nope=1", "'nope'"),
        ("age=old", "'age'"),
        ("age=old", "'old'"),
        ("age[$gt]=1.5", "'1.5'"),
        ("$sort[name]=up", "name"),
        ("$sort[nope]=1", "nope"),
        ("$select[]=nope", "nope"),
        ("name[]=a&name[]=b", "$in"),
    ],
)
def test_invalid_fields_and_values_name_the_culprit(api, people, query, needle):
    response = api.get(f"/people?{query}")
    assert response.status_code == 400
    assert needle in body(response)["message"]


def test_queries_use_the_api_names(api):
    Message.objects.create(text="a", user_id=1)
    Message.objects.create(text="b", user_id=2)
    answer = body(api.get("/messages?userId=2&$select[]=userId&$sort[userId]=-1"))
    assert answer == [{"id": Message.objects.get(text="b").pk, "userId": 2}]
    response = api.get("/messages?user_id=2")
    bad_request(response, "Invalid query field 'user_id': it does not exist or cannot be queried.")


def test_query_fields_and_sort_fields_options(api, people):
    assert names(api.get("/limited?name=Bob")) == ["Bob"]
    assert names(api.get(f"/limited?id={people['Bob'].pk}")) == ["Bob"]
    assert names(api.get("/limited?age=25")) == ["Bob"]
    assert api.get("/limited?created=true").status_code == 400
    assert names(api.get("/limited?$sort[age]=1")) == ["Alice", "Bob", "Doug"]
    assert api.get("/limited?$sort[name]=1").status_code == 400


@pytest.fixture
def samples():
    owner = Person.objects.create(name="Owner")
    first = Sample.objects.create(
        char="alpha",
        text="First text",
        integer=1,
        big=2**40,
        small=3,
        number=1.5,
        amount=Decimal("10.25"),
        flag=True,
        maybe=None,
        day=datetime.date(2024, 5, 1),
        moment=datetime.datetime(2024, 5, 1, 10, 0, tzinfo=datetime.timezone.utc),
        clock=datetime.time(8, 30),
        uid=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        secret="s3cret",
        owner=owner,
    )
    second = Sample.objects.create(char="Beta", text="second", integer=2, flag=False, maybe=True)
    return first, second


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("integer=1", ["alpha"]),
        ("big=1099511627776", ["alpha"]),
        ("small[$lte]=3", ["alpha"]),
        ("number[$gt]=1.2", ["alpha"]),
        ("amount=10.25", ["alpha"]),
        ("flag=true", ["alpha"]),
        ("flag=0", ["Beta"]),
        ("maybe=", ["alpha"]),
        ("maybe[$ne]=", ["Beta"]),
        ("day=2024-05-01", ["alpha"]),
        ("moment[$gte]=2024-05-01T09:00:00Z", ["alpha"]),
        ("moment=2024-05-01T12:00:00%2B02:00", ["alpha"]),
        ("clock=08:30:00", ["alpha"]),
        ("uid=12345678-1234-5678-1234-567812345678", ["alpha"]),
        ("char[$like]=al%25", ["alpha"]),
        ("char[$notlike]=al%25", ["Beta"]),
        ("char[$ilike]=BET%25", ["Beta"]),
        ("ownerName=Owner", ["alpha"]),
        ("integer[$in][]=2&integer[$in][]=3", ["Beta"]),
        ("$sort[integer]=-1", ["Beta", "alpha"]),
    ],
)
def test_values_convert_by_field_type(api, samples, query, expected):
    assert [row["char"] for row in body(api.get(f"/samples?{query}"))] == expected


def test_operators_option_default_from_settings(api, serve, people):
    serve({"people": M + "PersonService"}, OPERATORS=["$ilike"])
    assert names(api.get("/people?name[$ilike]=ALI%25")) == ["Alice"]
    assert api.get("/people?name[$like]=Ali%25").status_code == 400


def test_private_fields_are_never_sent_nor_queryable(api, samples):
    rows = body(api.get("/samples"))
    assert all("secret" not in row for row in rows)
    for query in ("secret=s3cret", "secret[$ne]=x", "$sort[secret]=1", "$or[0][secret]=a"):
        response = api.get(f"/samples?{query}")
        assert response.status_code == 400, query
        message = body(response)["message"]
        assert "'secret'" in message, message
        # Word for word what a field that does not exist gets.
        missing = body(api.get("/samples?" + query.replace("secret", "nosuch")))["message"]
        assert message == missing.replace("'nosuch'", "'secret'")
    response = api.get("/samples?$select[]=secret")
    assert response.status_code == 400
    # The message is the same as for a field that does not exist: nothing leaks.
    other = api.get("/samples?$select[]=nothing")
    assert body(response)["message"].replace("secret", "X") == body(other)["message"].replace(
        "nothing", "X"
    )


def test_private_fields_stay_writable(api):
    response = send(api, "POST", "/samples", {"char": "new", "secret": "hidden"})
    assert response.status_code == 201
    assert "secret" not in body(response)
    assert Sample.objects.get(char="new").secret == "hidden"
    sample_id = body(response)["id"]
    response = send(api, "PATCH", f"/samples/{sample_id}", {"secret": "changed"})
    assert "secret" not in body(response)
    assert Sample.objects.get(pk=sample_id).secret == "changed"


def test_select_of_computed_and_related_fields(api, samples):
    answer = body(api.get("/samples?char=alpha&$select[]=shout&$select[]=ownerName"))
    assert answer == [{"id": samples[0].pk, "shout": "ALPHA", "ownerName": "Owner"}]

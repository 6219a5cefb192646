"""
Feathers' adapter-tests "syntax" suite, against Person through the query string.

Each query is written as a Feathers client writes it (`codec.stringify`), read back as an
Express server reads it (`codec.parse`), and run on the database.
"""

from __future__ import annotations

import pytest

from django_services.query import codec, model_query_fields, parse_query
from tests.query.conftest import names, run_find
from tests.testapp.models import Person

pytestmark = pytest.mark.usefixtures("people")


def find(query, **options):
    total, rows = run_find(Person, query, **options)
    return rows if total is None else {"total": total, "rows": rows}


def test_find_equal():
    assert names(find({"name": "Alice"})) == ["Alice"]


def test_find_equal_multiple():
    assert find({"name": "Alice", "age": 20}) == []


def test_find_sort():
    assert names(find({"$sort": {"name": 1}})) == ["Alice", "Bob", "Doug"]
    assert names(find({"$sort": {"name": -1}})) == ["Doug", "Bob", "Alice"]


def test_find_sort_with_a_string_direction():
    assert names(find({"$sort": {"name": "1"}})) == ["Alice", "Bob", "Doug"]


def test_find_limit():
    assert len(find({"$limit": 2})) == 2


def test_find_limit_0():
    assert find({"$limit": 0}) == []


def test_find_skip():
    assert names(find({"$sort": {"name": 1}, "$skip": 1})) == ["Bob", "Doug"]


def test_find_select():
    (alice,) = find({"name": "Alice", "$select": ["name"]})
    assert (alice.name, alice.pk is not None) == ("Alice", True)
    assert "age" in alice.get_deferred_fields()


def test_find_or():
    rows = find({"$or": [{"name": "Alice"}, {"name": "Bob"}], "$sort": {"name": 1}})
    assert names(rows) == ["Alice", "Bob"]


def test_find_in():
    rows = find({"name": {"$in": ["Alice", "Bob"]}, "$sort": {"name": 1}})
    assert names(rows) == ["Alice", "Bob"]


def test_find_nin():
    assert names(find({"name": {"$nin": ["Alice", "Bob"]}})) == ["Doug"]


@pytest.mark.parametrize(
    ("operator", "value", "count"),
    [("$lt", 30, 2), ("$lte", 25, 2), ("$gt", 30, 1), ("$gte", 25, 2), ("$ne", 25, 2)],
)
def test_find_comparison_operators(operator, value, count):
    assert len(find({"age": {operator: value}})) == count


def test_find_gt_and_lt_and_sort():
    rows = find({"age": {"$gt": 18, "$lt": 30}, "$sort": {"name": 1}})
    assert names(rows) == ["Alice", "Bob"]


def test_find_or_nested_and_sort():
    rows = find({"$or": [{"name": "Doug"}, {"age": {"$gte": 18, "$lt": 25}}], "$sort": {"name": 1}})
    assert names(rows) == ["Alice", "Doug"]


def test_find_and():
    assert names(find({"$and": [{"age": 19}], "$sort": {"name": 1}})) == ["Alice"]


def test_find_and_with_or():
    assert names(find({"$and": [{"$or": [{"name": "Alice"}]}], "$sort": {"name": 1}})) == ["Alice"]


def test_paginate_default_from_the_service():
    page = find({}, paginate={"default": 3})
    assert (page["total"], len(page["rows"])) == (3, 3)


PAGINATE = {"default": 1, "max": 2}


def test_find_paginate():
    page = find({"$sort": {"name": -1}}, paginate=PAGINATE)
    assert page["total"] == 3
    assert names(page["rows"]) == ["Doug"]


def test_find_paginate_and_query():
    page = find({"name": "Bob", "$sort": {"name": -1}}, paginate=PAGINATE)
    assert page["total"] == 1
    assert names(page["rows"]) == ["Bob"]


def test_find_paginate_limit_and_skip():
    page = find({"$skip": 1, "$limit": 4, "$sort": {"name": -1}}, paginate=PAGINATE)
    assert page["total"] == 3
    assert names(page["rows"]) == ["Bob", "Alice"], "the limit is capped at max (2)"


def test_find_paginate_limit_0():
    page = find({"$limit": 0}, paginate=PAGINATE)
    assert (page["total"], page["rows"]) == (3, [])


def test_find_without_pagination_is_a_plain_list():
    assert len(find({})) == 3


def test_a_page_reports_the_effective_limit_and_skip():
    query = parse_query(
        codec.parse(codec.stringify({"$skip": 1, "$limit": 4})),
        fields=model_query_fields(Person),
        paginate=PAGINATE,
    )
    assert (query.limit, query.skip) == (2, 1)
    query = parse_query({}, fields=model_query_fields(Person), paginate={"default": 3})
    assert (query.limit, query.skip) == (3, 0)

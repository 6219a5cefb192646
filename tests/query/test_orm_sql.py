"""
The SQL of the common query shapes, as the database receives it, on a nullable indexed column.

`Person.age` is `IntegerField(null=True)` with a plain index: NULL semantics add conditions
only where they change the result (`$ne`, `$nin`, negations), and a sorted page on a column its
filter keeps free of NULL is ordered as a hand-written queryset would be.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from django_services.query import codec, find, model_query_fields, parse_query
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db

TABLE = Person._meta.db_table


def statements(query_string: str, *, paginate: dict[str, int] | None = None) -> list[str]:
    """The SQL a find sends, table and quoting stripped: `WHERE age > %s ORDER BY ...`."""
    parsed = parse_query(
        codec.parse(query_string),
        fields=model_query_fields(Person),
        paginate=paginate,
        operators=["$like"],
    )
    Person.objects.create(name="Ada", age=40)
    Person.objects.create(name="Nobody", age=None)
    with CaptureQueriesContext(connection) as queries:
        find(Person.objects.all(), parsed, paginated=paginate is not None)
    return [_plain(query["sql"]) for query in queries.captured_queries]


def _plain(sql: str) -> str:
    sql = sql.replace(f'"{TABLE}".', "").replace('"', "")
    # The values are parameters on every backend; the tests read where they go, not them.
    sql = re.sub(r"'(?!\\')(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"(?<![\w%])(%s|-?\d+)(?![\w%])", "?", sql)
    return sql


def where(query_string: str) -> str:
    (select,) = statements(query_string)
    return select.split(" WHERE ", 1)[1].split(" ORDER BY ")[0].split(" LIMIT ")[0]


@pytest.mark.parametrize(
    ("query_string", "expected"),
    [
        ("age[$gt]=30", "age > ?"),
        ("age[$gte]=30", "age >= ?"),
        ("age[$lt]=30", "age < ?"),
        ("age[$lte]=30", "age <= ?"),
        ("age=30", "age = ?"),
        ("age[$gt]=30&age[$lt]=60", "(age > ? AND age < ?)"),
        ("age[$in][]=30&age[$in][]=40", "age IN (?, ?)"),
        ("name=Ada&age[$gt]=30", "(name = ? AND age > ?)"),
        ("$or[0][name]=Ada&$or[1][age][$gt]=30", "(name = ? OR age > ?)"),
        ("name[$like]=A%25", "name LIKE ? ESCAPE '\\'"),
    ],
)
def test_comparisons_carry_no_null_check(query_string, expected):
    assert where(query_string) == expected


@pytest.mark.parametrize(
    ("query_string", "expected"),
    [
        # NULL is not equal to 30: those rows match, as in Feathers' memory adapter.
        ("age[$ne]=30", "NOT (age = ? AND age IS NOT NULL)"),
        ("age[$nin][]=30", "NOT (age IN (?) AND age IS NOT NULL)"),
        ("age[$ne]=", "age IS NOT NULL"),
        ("age=", "age IS NULL"),
    ],
)
def test_negations_keep_the_rows_where_the_field_is_null(query_string, expected):
    assert where(query_string) == expected


def test_a_value_no_column_can_hold_still_excludes_null():
    # Django drops `age > -3000000000` from the WHERE clause on PostgreSQL (always true for
    # an integer column there): the NULL check keeps NULL rows out on every database.
    assert "age IS NOT NULL" in where("age[$gt]=-3000000000")
    _, rows = _find("age[$gt]=-3000000000")
    assert [row.name for row in rows] == ["Ada"]


def _find(query_string: str):
    parsed = parse_query(codec.parse(query_string), fields=model_query_fields(Person))
    return find(Person.objects.all(), parsed, paginated=False)


def test_the_find_of_a_sorted_page_is_what_a_hand_written_queryset_sends():
    # More matches than the page holds: the total needs the COUNT.
    Person.objects.bulk_create(Person(name=f"P{age}", age=age) for age in range(31, 51))
    paged = statements("age[$gt]=30&$sort[age]=-1&$limit=10", paginate={"default": 10})
    hand_written = Person.objects.filter(age__gt=30).order_by("-age", "-id")
    with CaptureQueriesContext(connection) as queries:
        list(hand_written[:10])
        hand_written.count()
    assert paged == [_plain(query["sql"]) for query in queries.captured_queries]
    assert paged[0].startswith("SELECT id, name, age, created FROM ")
    assert paged[0].endswith("WHERE age > ? ORDER BY age DESC, id DESC LIMIT ?")


def test_a_sort_on_a_column_that_may_hold_null_places_null_explicitly():
    (select,) = statements("name=Ada&$sort[age]=-1")
    if connection.features.supports_order_by_nulls_modifier:
        assert "ORDER BY age DESC NULLS LAST, id DESC" in select
    (select,) = statements("$sort[age]=1")
    if connection.features.supports_order_by_nulls_modifier:
        assert "ORDER BY age ASC NULLS FIRST, id ASC" in select


@pytest.mark.parametrize(
    "query_string",
    ["age[$gt]=30&$sort[age]=1", "age[$in][]=40&$sort[age]=1", "age=40&$sort[age]=1"],
)
def test_a_sort_on_a_column_its_filter_keeps_free_of_null_is_a_plain_order_by(query_string):
    (select,) = statements(query_string)
    assert select.endswith("ORDER BY age ASC, id ASC")


@pytest.mark.parametrize("query_string", ["age[$ne]=30&$sort[age]=1", "age[$nin][]=3&$sort[age]=1"])
def test_a_filter_that_lets_null_through_keeps_the_null_placement(query_string):
    (select,) = statements(query_string)
    assert "NULLS" in select or not connection.features.supports_order_by_nulls_modifier
    parsed = parse_query(codec.parse(query_string), fields=model_query_fields(Person))
    _, rows = find(Person.objects.all(), parsed, paginated=False)
    assert [row.name for row in rows] == ["Nobody", "Ada"]


def test_the_deep_page_counts_and_pages_without_conditions():
    select, count = statements("$skip=1&$limit=1", paginate={"default": 10})
    assert "WHERE" not in select and "WHERE" not in count
    assert select.endswith("ORDER BY id ASC LIMIT ? OFFSET ?")

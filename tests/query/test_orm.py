"""Queries run on the real database: every operator on every field type, NULLs, sort, select."""

from __future__ import annotations

import datetime
import operator
import uuid
import warnings
from decimal import Decimal
from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from django_services.errors import BadRequest
from django_services.query import (
    QueryField,
    apply_filters,
    apply_select,
    codec,
    fetch_page,
    find,
    model_query_fields,
    parse_query,
    to_q,
)
from tests.query.conftest import names, run_find
from tests.testapp.models import Person, Sample

pytestmark = pytest.mark.django_db

UTC = datetime.timezone.utc

# Three rows with growing values, and a fourth with every nullable field NULL (text fields
# empty). Each entry: field -> (the three values, how a query string writes each of them).
FIELD_VALUES = {
    "char": (["apple", "banana", "cherry"], ["apple", "banana", "cherry"]),
    "text": (["alpha", "beta", "gamma"], ["alpha", "beta", "gamma"]),
    "email": (["a@x.example", "b@x.example", "c@x.example"], None),
    "integer": ([1, 2, 3], ["1", "2", "3"]),
    "big": ([2**40, 2**41, 2**42], [str(2**40), str(2**41), str(2**42)]),
    "small": ([1, 2, 3], ["1", "2", "3"]),
    "number": ([1.5, 2.5, 3.5], ["1.5", "2.5", "3.5"]),
    "amount": ([Decimal("1.10"), Decimal("2.20"), Decimal("3.30")], ["1.1", "2.20", "3.300"]),
    "flag": ([False, True, True], ["false", "1", "true"]),
    "maybe": ([False, True, True], ["0", "true", "TRUE"]),
    "day": (
        [datetime.date(2024, 1, 1), datetime.date(2024, 1, 2), datetime.date(2024, 1, 3)],
        ["2024-01-01", "2024-01-02", "2024-01-03"],
    ),
    "moment": (
        [datetime.datetime(2024, 1, day, 8, tzinfo=UTC) for day in (1, 2, 3)],
        ["2024-01-01T08:00:00Z", "2024-01-02T09:00:00+01:00", "2024-01-03T08:00:00.000Z"],
    ),
    "clock": (
        [datetime.time(8), datetime.time(9, 30), datetime.time(10, 0, 0, 500000)],
        ["08:00", "09:30:00", "10:00:00.5"],
    ),
    "uid": ([uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)], None),
    "owner": ([101, 102, 103], ["101", "102", "103"]),
}
NULL_ROW = {"char": "", "text": "", "email": "", "flag": False}


def _written(field: str) -> list[str]:
    values, written = FIELD_VALUES[field]
    return written or [str(value) for value in values]


@pytest.fixture
def samples():
    for pk in (101, 102, 103):
        Person.objects.create(pk=pk, name=f"Owner {pk}")
    rows = []
    for index in range(3):
        values = {field: values[index] for field, (values, _) in FIELD_VALUES.items()}
        values["owner_id"] = values.pop("owner")
        rows.append(Sample.objects.create(secret="hidden", **values))
    rows.append(Sample.objects.create(**NULL_ROW))
    return rows


def value_of(row: Sample, field: str):
    return row.owner_id if field == "owner" else getattr(row, field)


def matching(samples, field, test):
    return {row.pk for row in samples if test(value_of(row, field))}


def found(query) -> set[int]:
    return {row.pk for row in run_find(Sample, query, exclude=["secret"])[1]}


ORDERED = {"$lt": operator.lt, "$lte": operator.le, "$gt": operator.gt, "$gte": operator.ge}


@pytest.mark.parametrize("field", list(FIELD_VALUES))
def test_every_operator_on_every_field_type(samples, field):
    values, _ = FIELD_VALUES[field]
    low, middle, high = _written(field)
    assert len(samples) == 4

    assert found({field: middle}) == matching(samples, field, lambda v: v == values[1])
    assert found({field: {"$ne": middle}}) == matching(samples, field, lambda v: v != values[1])
    in_values = [values[0], values[2]]
    assert found({field: {"$in": [low, high]}}) == matching(
        samples, field, lambda v: v in in_values
    )
    assert found({field: {"$nin": [low, high]}}) == matching(
        samples, field, lambda v: v not in in_values
    )
    for name, compare in ORDERED.items():
        expected = matching(samples, field, lambda v, c=compare: v is not None and c(v, values[1]))
        assert found({field: {name: middle}}) == expected, name
    assert found({field: {"$gt": low, "$lt": high}}) == matching(
        samples, field, lambda v: v is not None and values[0] < v < values[2]
    )


@pytest.mark.parametrize(
    "field", [name for name in FIELD_VALUES if name not in ("char", "text", "email", "flag")]
)
def test_null_is_the_empty_value_of_a_nullable_field(samples, field):
    null_row = {samples[3].pk}
    not_null = {row.pk for row in samples[:3]}
    assert found(f"{field}=") == null_row
    assert found({field: None}) == null_row, "the client writes None as an empty value"
    assert found(f"{field}[$ne]=") == not_null
    assert found(f"{field}[$in][]=&{field}[$in][]={_written(field)[0]}") == {
        samples[0].pk,
        samples[3].pk,
    }
    assert found(f"{field}[$nin][]=&{field}[$nin][]={_written(field)[0]}") == {
        samples[1].pk,
        samples[2].pk,
    }
    assert found(f"{field}[$in][]=") == null_row


def test_rows_with_null_match_ne_and_nin(samples):
    assert samples[3].pk in found({"integer": {"$ne": "2"}})
    assert samples[3].pk in found({"integer": {"$nin": ["2"]}})
    assert samples[3].pk not in found({"integer": {"$lt": "5"}})


def test_the_empty_value_of_a_text_field_is_the_empty_string(samples):
    assert found("char=") == {samples[3].pk}
    assert found("char[$ne]=") == {row.pk for row in samples[:3]}


def test_numbers_beyond_every_database_range_are_refused_and_within_it_just_match(samples):
    with pytest.raises(BadRequest, match="out of range"):
        found({"integer": {"$in": ["1", str(2**63)]}})
    with pytest.raises(BadRequest, match="out of range"):
        found({"owner": str(2**64)})
    # Beyond a 32-bit column but within 64 bits: Django answers without asking the database.
    assert found({"integer": str(2**40)}) == set()
    assert found({"integer": {"$lt": str(2**40)}}) == {row.pk for row in samples[:3]}
    assert found({"small": {"$gt": "-99999999999"}}) == {row.pk for row in samples[:3]}
    assert found({"small": {"$gt": "-1"}}) == {row.pk for row in samples[:3]}
    assert found({"small": {"$lte": "99999"}}) == {row.pk for row in samples[:3]}


# $or and $and


def test_or_and_and_nest(samples):
    first, second, third, _ = samples
    assert found({"$or": [{"integer": "1"}, {"char": "cherry"}]}) == {first.pk, third.pk}
    assert found({"$and": [{"integer": {"$gte": "2"}}, {"flag": "true"}]}) == {
        second.pk,
        third.pk,
    }
    query = {
        "$and": [
            {"$or": [{"integer": "1"}, {"integer": "3"}]},
            {"$or": [{"day": "2024-01-03"}, {"char": "apple"}]},
        ],
        "flag": "true",
    }
    assert found(query) == {third.pk}
    assert found({"$or": [{"$or": [{"integer": "1"}, {"integer": "2"}]}, {"integer": ""}]}) == {
        first.pk,
        second.pk,
        samples[3].pk,
    }
    assert found({"$or": [{"integer": "1", "char": "banana"}, {"integer": "2"}]}) == {second.pk}


def test_empty_or_matches_nothing_and_empty_and_everything(samples):
    # Over HTTP an empty list is never sent: qs.stringify leaves it out.
    assert found({"$or": []}) == {row.pk for row in samples}
    parsed = parse_query({"$or": [], "$and": []}, fields=model_query_fields(Sample))
    assert list(Sample.objects.filter(to_q(parsed.conditions.conditions[1]))) == list(
        Sample.objects.all()
    )
    assert not Sample.objects.filter(to_q(parsed.conditions.conditions[0])).exists()


# $sort


def test_sort_by_several_keys_in_order(db):
    for name, age in [("b", 30), ("a", 30), ("c", 20), ("d", None), ("a", 20)]:
        Person.objects.create(name=name, age=age)
    _, rows = run_find(Person, {"$sort": {"age": -1, "name": 1}})
    assert [(row.age, row.name) for row in rows] == [
        (30, "a"),
        (30, "b"),
        (20, "a"),
        (20, "c"),
        (None, "d"),
    ]
    _, rows = run_find(Person, {"$sort": {"name": 1, "age": 1}})
    assert [(row.name, row.age) for row in rows] == [
        ("a", 20),
        ("a", 30),
        ("b", 30),
        ("c", 20),
        ("d", None),
    ]


def test_null_sorts_first_ascending_and_last_descending_on_every_database(samples):
    for field in ("integer", "day", "moment", "uid", "owner", "maybe"):
        _, rows = run_find(Sample, {"$sort": {field: 1}}, exclude=["secret"])
        assert rows[0].pk == samples[3].pk, field
        _, rows = run_find(Sample, {"$sort": {field: -1}}, exclude=["secret"])
        assert rows[-1].pk == samples[3].pk, field


def test_rows_equal_on_every_sort_key_come_in_primary_key_order(db):
    people = [Person.objects.create(name="same", age=1) for _ in range(6)]
    _, rows = run_find(Person, {"$sort": {"name": 1}, "$limit": 3, "$skip": 3})
    assert [row.pk for row in rows] == [person.pk for person in people[3:]]


def test_ties_follow_the_direction_of_the_last_sort_key_and_pages_never_overlap(db):
    people = [Person.objects.create(name=f"p{index % 2}", age=index % 3) for index in range(12)]
    pages = [
        run_find(Person, {"$sort": {"name": 1, "age": -1}, "$limit": 5, "$skip": skip})[1]
        for skip in (0, 5, 10)
    ]
    rows = [row for page in pages for row in page]
    expected = sorted(people, key=lambda person: (person.name, -person.age, -person.pk))
    assert [row.pk for row in rows] == [person.pk for person in expected]

    _, ascending = run_find(Person, {"$sort": {"age": -1, "name": 1}})
    expected = sorted(people, key=lambda person: (-person.age, person.name, person.pk))
    assert [row.pk for row in ascending] == [person.pk for person in expected]


def test_a_descending_sort_orders_its_tie_breaker_descending_in_sql(db):
    parsed = parse_query({"$sort": {"age": "-1"}}, fields=model_query_fields(Person))
    sql = str(apply_filters(Person.objects.all(), parsed).query)
    pk = connection.ops.quote_name("id")
    assert sql.endswith(f"{pk} DESC")


def test_a_query_without_conditions_or_sort_leaves_the_queryset_as_it_is(db):
    queryset = Person.objects.order_by("-age")
    for query in ({}, {"$limit": "5", "$skip": "2"}, {"$select": ["name"]}, {"$and": [{}]}):
        parsed = parse_query(query, fields=model_query_fields(Person))
        assert apply_filters(queryset, parsed) is queryset
    parsed = parse_query({"$or": []}, fields=model_query_fields(Person))
    assert apply_filters(queryset, parsed) is not queryset


def test_a_find_without_sort_keeps_the_querysets_ordering(people):
    parsed = parse_query({}, fields=model_query_fields(Person))
    queryset = apply_filters(Person.objects.order_by("-age"), parsed)
    assert names(queryset) == ["Doug", "Bob", "Alice"]


# $select


def test_select_narrows_the_columns_of_the_select(people):
    with CaptureQueriesContext(connection) as queries:
        _, rows = run_find(Person, {"$select": ["name"]})
    (select,) = [query["sql"] for query in queries.captured_queries]
    columns = select.split(" FROM ")[0]
    assert '"name"' in columns
    assert '"id"' in columns
    assert '"age"' not in columns
    assert '"created"' not in columns
    assert rows[0].get_deferred_fields() == {"age", "created"}


def test_select_of_a_name_that_is_not_a_column_loads_every_column(people):
    fields = model_query_fields(Person)
    parsed = parse_query({"$select": ["greeting"]}, fields=fields, selectable=["greeting"])
    queryset = apply_select(Person.objects.all(), parsed)
    assert str(queryset.query) == str(Person.objects.all().query)


def test_select_on_a_foreign_key_loads_its_column(samples):
    fields = model_query_fields(Sample)
    parsed = parse_query({"$select": ["owner"]}, fields=fields)
    with CaptureQueriesContext(connection) as queries:
        rows = list(apply_select(Sample.objects.order_by("pk"), parsed))
    assert '"owner_id"' in queries.captured_queries[0]["sql"]
    assert '"char"' not in queries.captured_queries[0]["sql"]
    assert rows[0].owner_id == 101


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("2024-01-02T08:00:00+23:59", {102, 103}),  # 2024-01-01T08:01Z
        ("2024-01-02T08:00:00-23:59", {103}),  # 2024-01-03T07:59Z
        ("0001-01-01T00:00:00-23:59", {101, 102, 103}),
    ],
)
def test_datetimes_with_any_offset_python_reads_are_compared(samples, written, expected):
    assert {row.owner_id for row in run_find(Sample, f"moment[$gt]={quote(written)}")[1]} == (
        expected
    )


def test_select_keeps_the_relations_select_related_follows(samples):
    # Django refuses `select_related("owner").only("char")`: the relation stays loaded.
    fields = model_query_fields(Sample)
    parsed = parse_query({"$select": ["char"]}, fields=fields)
    with CaptureQueriesContext(connection) as queries:
        rows = list(apply_select(Sample.objects.select_related("owner").order_by("pk"), parsed))
        assert rows[0].owner.pk == 101
    (select,) = [query["sql"] for query in queries.captured_queries]
    assert '"owner_id"' in select
    assert '"integer"' not in select.split(" FROM ")[0]
    assert rows[0].get_deferred_fields() >= {"integer", "text"}


def test_select_with_select_related_of_every_relation_is_accepted(samples):
    fields = model_query_fields(Sample)
    parsed = parse_query({"$select": ["char"]}, fields=fields)
    with warnings.catch_warnings():
        # Django 6.1 deprecates select_related() without fields; projects on 5.2 still use it.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        queryset = Sample.objects.select_related().order_by("pk")
    rows = list(apply_select(queryset, parsed))
    assert rows[0].char == "apple"


# $like, $notlike, $ilike


@pytest.fixture
def words(db):
    for name in ["Alice", "alice", "ALICE", "Malice", "100%", "1000", "a_b", "axb", "back\\slash"]:
        Person.objects.create(name=name)


def like(pattern: str, operator_name: str = "$like") -> list[str]:
    _, rows = run_find(
        Person,
        {"name": {operator_name: pattern}, "$sort": {"name": 1}},
        operators=["$like", "$notlike", "$ilike"],
    )
    return sorted(names(rows))


def test_like_wildcards_and_escapes_behave_alike_on_every_database(words):
    assert like("%lice") == sorted(
        ["Alice", "alice", "Malice"] + (["ALICE"] if connection.vendor == "sqlite" else [])
    )
    assert like("100\\%") == ["100%"]
    assert like("100%") == ["100%", "1000"]
    assert like("a\\_b") == ["a_b"]
    assert like("a_b") == ["a_b", "axb"]
    assert like("%\\\\%") == ["back\\slash"]
    assert like("") == []


def test_like_is_case_sensitive_on_postgresql_and_not_for_ascii_on_sqlite(words):
    expected = ["ALICE", "Alice", "alice"] if connection.vendor == "sqlite" else ["Alice"]
    assert like("Alice") == expected


def test_ilike_ignores_case_on_every_database(words):
    assert like("alice", "$ilike") == ["ALICE", "Alice", "alice"]
    assert like("%LICE", "$ilike") == ["ALICE", "Alice", "Malice", "alice"]
    assert like("100\\%", "$ilike") == ["100%"]


def test_notlike_is_the_rows_like_does_not_match(words):
    every = sorted(Person.objects.values_list("name", flat=True))
    assert like("%lic%", "$notlike") == sorted(set(every) - set(like("%lic%")))


def test_like_on_a_path_through_a_relation(samples):
    fields = {
        **model_query_fields(Sample),
        "ownerName": QueryField("ownerName", "owner__name", Person._meta.get_field("name")),
    }
    parsed = parse_query(
        codec.parse("ownerName[$like]=%25102&$sort[ownerName]=-1"),
        fields=fields,
        operators=["$like"],
    )
    _, rows = find(Sample.objects.all(), parsed, paginated=False)
    assert [row.pk for row in rows] == [samples[1].pk]


# Statements per find


@pytest.mark.parametrize("size", [0, 1, 7, 60])
@pytest.mark.parametrize(
    "query",
    [
        {},
        {"$limit": 5},
        {"$skip": 3},
        {"$limit": 5, "$skip": 5, "$sort": {"age": -1}},
        {"$skip": 1000},
        {"age": {"$gte": 10}, "$or": [{"name": "p1"}, {"created": False}], "$select": ["name"]},
    ],
)
def test_a_paginated_find_is_at_most_two_statements_and_an_unpaginated_one_one(
    db, django_assert_max_num_queries, django_assert_num_queries, size, query
):
    Person.objects.bulk_create(Person(name=f"p{index}", age=index) for index in range(size))
    conditions = {key: value for key, value in query.items() if not key.startswith("$")}
    matches = Person.objects.filter(
        to_q(parse_query(conditions, fields=model_query_fields(Person)))
    ).count()
    skip, limit = query.get("$skip", 0), query.get("$limit", 10)

    with django_assert_max_num_queries(2):
        total, rows = run_find(Person, query, paginate={"default": 10, "max": 50})
    assert total == matches
    assert len(rows) == max(0, min(limit, matches - skip))

    with django_assert_num_queries(1):
        total, rows = run_find(Person, query)
    assert total is None
    assert len(rows) == max(0, min(query.get("$limit", matches), matches - skip))


def test_the_total_counts_every_match_not_only_the_page(db):
    Person.objects.bulk_create(Person(name=f"p{index}", age=index) for index in range(30))
    total, rows = run_find(Person, {"age": {"$gte": 5}, "$skip": 10}, paginate={"default": 10})
    assert (total, len(rows)) == (25, 10)
    total, rows = run_find(Person, {"age": {"$gte": 5}, "$skip": 20}, paginate={"default": 10})
    assert (total, len(rows)) == (25, 5)
    total, rows = run_find(Person, {"$skip": 40}, paginate={"default": 10})
    assert (total, rows) == (30, [])


def test_limit_zero_counts_only(db, django_assert_num_queries):
    Person.objects.bulk_create(Person(name=f"p{index}") for index in range(3))
    with django_assert_num_queries(1) as queries:
        assert run_find(Person, {"$limit": 0}, paginate={"default": 10}) == (3, [])
    assert "COUNT" in queries.captured_queries[0]["sql"]
    with django_assert_num_queries(0):
        assert run_find(Person, {"$limit": 0}) == (None, [])


def test_fetch_page_slices_a_queryset_filtered_elsewhere(people):
    parsed = parse_query(
        codec.parse("$sort[name]=1&$limit=1&$skip=1&age[$lt]=30"),
        fields=model_query_fields(Person),
        paginate={"default": 5},
    )
    filtered = apply_filters(Person.objects.all(), parsed)
    total, rows = fetch_page(filtered, parsed, paginated=True)
    assert (total, names(rows)) == (2, ["Bob"])


def test_huge_skip_and_limit_do_not_break_the_database(people):
    assert run_find(Person, "$skip=99999999999999999999&$limit=5", paginate={"default": 5}) == (
        3,
        [],
    )
    _, rows = run_find(Person, "$limit=99999999999999999999")
    assert len(rows) == 3


def test_the_like_lookups_are_not_registered_on_django_fields():
    from django.db import models

    for field_class in (models.CharField, models.TextField, models.Field):
        assert "feathers_like" not in field_class.get_class_lookups()
        assert "feathers_ilike" not in field_class.get_class_lookups()

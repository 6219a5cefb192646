"""parse_query: filters apart from conditions, Feathers' checks and messages, value conversion."""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from django_services.errors import BadRequest
from django_services.query import (
    And,
    Comparison,
    FeathersQuery,
    Or,
    Paginate,
    QueryField,
    codec,
    model_query_fields,
    parse_query,
)
from tests.testapp.models import Person, Sample

PERSON_FIELDS = model_query_fields(Person)


def parse(query_string: str, **options):
    options.setdefault("fields", PERSON_FIELDS)
    return parse_query(codec.parse(query_string), **options)


def bad_request(query_string: str, **options) -> BadRequest:
    with pytest.raises(BadRequest) as caught:
        parse(query_string, **options)
    assert caught.value.code == 400
    return caught.value


def comparisons(query: FeathersQuery) -> list[tuple[str, str, object]]:
    assert isinstance(query.conditions, And)
    return [
        (condition.field.name, condition.operator, condition.value)
        for condition in query.conditions.conditions
    ]


# Filters and conditions


def test_filters_are_split_from_field_conditions():
    query = parse(
        "name=Alice&age[$gte]=18&age[$lt]=30&$limit=5&$skip=10&$sort[age]=-1&$sort[name]=1"
        "&$select[]=name"
    )
    assert comparisons(query) == [("name", "$eq", "Alice"), ("age", "$gte", 18), ("age", "$lt", 30)]
    assert query.limit == 5
    assert query.skip == 10
    assert query.sort == (("age", -1), ("name", 1))
    assert query.select == ("name", "id")


def test_an_empty_query_matches_everything_without_limits():
    assert parse("") == FeathersQuery(conditions=And(()), limit=None, skip=0, sort=(), select=None)
    assert parse_query(None, fields=PERSON_FIELDS).conditions == And(())


def test_or_and_and_become_nested_conditions():
    query = parse("$or[0][name]=Alice&$or[1][age][$gt]=30&$and[0][$or][0][name]=Bob&created=true")
    alice, older = (
        Comparison(PERSON_FIELDS["name"], "$eq", "Alice"),
        Comparison(PERSON_FIELDS["age"], "$gt", 30),
    )
    bob = Comparison(PERSON_FIELDS["name"], "$eq", "Bob")
    assert query.conditions == And(
        (
            Or((And((alice,)), And((older,)))),
            And((And((Or((And((bob,)),)),)),)),
            Comparison(PERSON_FIELDS["created"], "$eq", True),
        )
    )


def test_a_query_that_is_not_an_object_is_a_bad_request():
    with pytest.raises(BadRequest, match="must be an object"):
        parse_query(["name"], fields=PERSON_FIELDS)


# Feathers' own checks, with Feathers' messages


@pytest.mark.parametrize("name", ["$foo", "$paginate", "$populate", "$eager"])
def test_an_unknown_filter_is_invalid_filter_value(name):
    error = bad_request(f"{name}=1")
    assert error.message == f"Invalid filter value {name}"
    assert error.data is None
    assert error.to_json() == {
        "name": "BadRequest",
        "message": f"Invalid filter value {name}",
        "code": 400,
        "className": "bad-request",
    }


@pytest.mark.parametrize(
    ("query_string", "operator", "data"),
    [
        ("name[$like]=a", "$like", {"$like": "a"}),
        ("age[$exists]=true", "$exists", {"$exists": "true"}),
        ("age[$gt]=1&age[$regex]=x", "$regex", {"$gt": "1", "$regex": "x"}),
        ("name[$in][0][$foo]=1", "$foo", {"$foo": "1"}),
        ("$or[0][name][$eq]=a", "$eq", {"$eq": "a"}),
        ("$or[0][$and][0][name]=Alice", "$and", {"$and": [{"name": "Alice"}]}),
        ("$and[0][$and][0][name]=Alice", "$and", {"$and": [{"name": "Alice"}]}),
        ("$or[0][$limit]=1", "$limit", {"$limit": "1"}),
        ("$sort[name][$foo]=1", "$foo", {"$foo": "1"}),
        ("$select[$foo]=name", "$foo", {"$foo": "name"}),
    ],
)
def test_an_operator_not_allowed_is_invalid_query_parameter(query_string, operator, data):
    error = bad_request(query_string)
    assert error.message == f"Invalid query parameter {operator}"
    assert error.data == data


def test_filters_are_checked_before_unknown_filters_as_feathers_does():
    error = bad_request("$foo=1&$or[0][$and][0][name]=Alice")
    assert error.message == "Invalid query parameter $and"


def test_a_message_key_in_the_offending_object_does_not_replace_the_message():
    error = bad_request("name[$like]=a&name[message]=hello")
    assert error.message == "Invalid query parameter $like"
    assert error.data == {"$like": "a", "message": "hello"}


def test_or_inside_and_is_allowed():
    query = parse("$and[0][$or][0][name]=Alice&$and[0][$or][1][name]=Bob")
    assert len(query.conditions.conditions) == 1


def test_or_inside_a_field_is_refused():
    error = bad_request("age[$or][0]=1")
    assert error.message == "Invalid query parameter $or"
    assert error.data == {"$or": ["1"]}


def test_an_operator_where_a_field_belongs_is_refused():
    error = bad_request("$or[0][$in][]=1")
    assert error.message == "Invalid query parameter $in"


@pytest.mark.parametrize("operator", ["$like", "$notlike", "$ilike"])
def test_optional_operators_work_once_enabled(operator):
    query = parse(f"name[{operator}]=A%25", operators=[operator])
    assert comparisons(query) == [("name", operator, "A%")]
    assert bad_request(f"name[{operator}]=A%25").message == f"Invalid query parameter {operator}"


def test_only_the_optional_operators_can_be_enabled():
    with pytest.raises(ImproperlyConfigured, match=r"'\$regex'.*\$like, \$notlike, \$ilike"):
        parse("", operators=["$regex"])


# Fields


@pytest.mark.parametrize(
    ("query_string", "field"),
    [
        ("nope=1", "nope"),
        ("secret=x", "secret"),
        ("owner.name=x", "owner.name"),
        ("owner__name=x", "owner__name"),
        ("$or[0][nope]=1", "nope"),
        ("$and[0][secret][$ne]=x", "secret"),
        ("nope[$in][]=1", "nope"),
    ],
)
def test_a_field_that_does_not_exist_or_is_private_is_a_bad_request_naming_it(
    sample_fields, query_string, field
):
    error = bad_request(query_string, fields=sample_fields)
    assert (
        error.message == f"Invalid query field '{field}': it does not exist or cannot be queried."
    )


def test_private_and_missing_fields_get_the_same_message(sample_fields):
    secret = bad_request("secret=x", fields=sample_fields).message
    missing = bad_request("nothing=x", fields=sample_fields).message
    assert secret.replace("secret", "nothing") == missing


def test_api_names_map_to_orm_paths():
    fields = {
        "userId": QueryField("userId", "user_id", Sample._meta.get_field("integer")),
    }
    query = parse("userId[$in][]=1&userId[$in][]=2", fields=fields)
    (condition,) = query.conditions.conditions
    assert (condition.field.path, condition.value) == ("user_id", (1, 2))


def test_a_list_without_an_operator_is_a_bad_request_suggesting_in():
    for query_string in ["age[]=1&age[]=2", "age=1&age=2", "age[0]=1"]:
        error = bad_request(query_string)
        assert error.message == (
            "Invalid value for field 'age': a list of values needs an operator, "
            "e.g. age[$in][]=a&age[$in][]=b."
        )


def test_an_object_with_other_keys_than_operators_is_a_bad_request():
    error = bad_request("age[foo]=1")
    assert error.message == (
        "Invalid query for field 'age': 'foo' is not an operator "
        "(use $gt, $gte, $in, $lt, $lte, $ne, $nin)."
    )
    assert "'x' is not an operator" in bad_request("age[$gt]=1&age[x]=2").message


def test_an_operator_taking_one_value_refuses_a_list():
    error = bad_request("age[$gt][]=1")
    assert error.message == (
        "Invalid value for field 'age': $gt takes a single value, not an object or a list."
    )


@pytest.mark.parametrize("operator", ["$lt", "$lte", "$gt", "$gte"])
def test_an_order_operator_refuses_null(operator):
    error = bad_request(f"age[{operator}]=")
    assert error.message == f"Invalid value for field 'age': {operator} needs a value, not null."


# $in and $nin


@pytest.mark.parametrize(
    "query",
    [
        {"age": {"$in": ["1", "2"]}},
        {"age": {"$in": {"0": "1", "1": "2"}}},
        {"age": {"$in": {"1": "2", "0": "1"}}},
        {"age": {"$in": {0: 1, 1: 2}}},
        {"age": {"$in": (1, 2)}},
    ],
)
def test_in_takes_a_list_or_an_object_with_numeric_keys(query):
    assert comparisons(parse_query(query, fields=PERSON_FIELDS)) == [("age", "$in", (1, 2))]


def test_in_with_numeric_keys_of_thousands_of_digits_is_read_not_a_crash():
    query = parse(f"age[$in][{'9' * 5000}]=1&age[$in][{'9' * 4999}]=2")
    assert comparisons(query) == [("age", "$in", (2, 1))]


def test_in_with_a_single_value_is_a_one_element_list():
    assert comparisons(parse("age[$in]=3&name[$nin]=Bob")) == [
        ("age", "$in", (3,)),
        ("name", "$nin", ("Bob",)),
    ]


def test_in_keeps_null_for_nullable_fields():
    assert comparisons(parse("age[$in][]=&age[$in][]=3")) == [("age", "$in", (None, 3))]


def test_in_refuses_nested_lists_and_values_that_do_not_convert():
    assert "takes a list of values" in bad_request("age[$in][0][0]=1").message
    assert bad_request("age[$in][]=1&age[$in][]=x").message == (
        "Invalid value 'x' for field 'age': expected an integer."
    )


# $limit and $skip


@pytest.mark.parametrize(
    ("value", "expected"),
    [("5", 5), ("2.7", 2), (" 7", 7), ("8px", 8), ("-0", 0), ("0", 0), ("+3", 3)],
)
def test_limit_reads_like_parse_int(value, expected):
    assert parse(f"$limit={value}").limit == expected


@pytest.mark.parametrize("value", ["abc", "", "-1", "NaN", "px8"])
def test_an_invalid_or_negative_limit_is_no_limit_without_pagination(value):
    assert parse(f"$limit={value}").limit is None


@pytest.mark.parametrize(
    ("query_string", "expected"),
    [
        ("", 10),
        ("$limit=5", 5),
        ("$limit=50", 50),
        ("$limit=51", 50),
        ("$limit=1000000", 50),
        ("$limit=0", 0),
        ("$limit=abc", 10),
        ("$limit=-5", 10),
        ("$limit=2.9", 2),
        ("$limit[]=7", 7),
    ],
)
def test_limit_with_pagination_falls_back_to_the_default_and_is_capped(query_string, expected):
    assert parse(query_string, paginate={"default": 10, "max": 50}).limit == expected
    assert parse(query_string, paginate=Paginate(default=10, max=50)).limit == expected


def test_pagination_with_only_a_default_or_only_a_max():
    assert parse("", paginate={"default": 3}).limit == 3
    assert parse("$limit=100", paginate={"default": 3}).limit == 100
    assert parse("", paginate={"max": 20}).limit == 20
    assert parse("$limit=5", paginate={"max": 20}).limit == 5


def test_pagination_settings_are_checked():
    with pytest.raises(ImproperlyConfigured, match="paginate\\['max'\\] must be"):
        parse("", paginate={"default": 1, "max": -1})
    with pytest.raises(ImproperlyConfigured, match="not \\['size'\\]"):
        parse("", paginate={"size": 1})
    with pytest.raises(ImproperlyConfigured, match="must be None or a mapping"):
        parse("", paginate=10)
    assert parse("", paginate=False).limit is None


@pytest.mark.parametrize(
    ("value", "expected"), [("3", 3), ("3.9", 3), ("abc", 0), ("-2", 0), ("", 0)]
)
def test_skip_reads_like_parse_int_and_invalid_is_zero(value, expected):
    assert parse(f"$skip={value}").skip == expected


def test_huge_limit_and_skip_are_kept_within_what_databases_take():
    query = parse("$limit=99999999999999999999999&$skip=99999999999999999999999")
    assert query.limit == query.skip == 2**62


def test_limit_and_skip_of_thousands_of_digits_are_read_not_a_crash():
    # Python's int() refuses strings of more than 4300 digits.
    many = "9" * 5000
    query = parse(f"$limit={many}&$skip=0000{'0' * 5000}12", paginate={"default": 1, "max": 7})
    assert (query.limit, query.skip) == (7, 12)
    assert parse(f"$limit=-{many}&$skip=-{many}").limit is None
    assert parse(f"$skip=-{many}").skip == 0


# $sort


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("-1", -1)])
def test_sort_directions_are_1_and_minus_1(value, expected):
    assert parse(f"$sort[name]={value}").sort == (("name", expected),)
    assert parse_query({"$sort": {"name": int(value)}}, fields=PERSON_FIELDS).sort == (
        ("name", expected),
    )


@pytest.mark.parametrize("value", ["asc", "desc", "0", "2", "", "1.0"])
def test_any_other_sort_direction_is_a_bad_request(value):
    assert bad_request(f"$sort[name]={value}").message == (
        f"Invalid $sort direction '{value}' for 'name': use 1 (ascending) or -1 (descending)."
    )


def test_sort_names_a_known_sortable_field():
    assert bad_request("$sort[nope]=1").message == (
        "Invalid $sort field 'nope': it does not exist or cannot be queried."
    )
    fields = {
        **PERSON_FIELDS,
        "name": QueryField("name", "name", Person._meta.get_field("name"), sortable=False),
    }
    assert bad_request("$sort[name]=1", fields=fields).message == (
        "Invalid $sort field 'name': sorting by it is not allowed."
    )


def test_sort_must_be_an_object():
    assert bad_request("$sort=name").message == (
        "$sort must be an object of fields and directions, e.g. $sort[name]=1."
    )


# $select


def test_select_always_includes_the_id_once():
    assert parse("$select[]=name&$select[]=name").select == ("name", "id")
    assert parse("$select[]=id&$select[]=age").select == ("id", "age")
    assert parse("$select=name").select == ("name", "id")
    assert parse_query({"$select": {"0": "age"}}, fields=PERSON_FIELDS).select == ("age", "id")


def test_select_names_what_may_be_selected():
    assert bad_request("$select[]=nope").message == (
        "Invalid $select field 'nope': it does not exist or cannot be selected."
    )
    query = parse("$select[]=greeting", selectable=["name", "greeting"])
    assert query.select == ("greeting", "id")
    assert "'age'" in bad_request("$select[]=age", selectable=["name"]).message
    assert parse("$select[]=name", id_field="pk").select == ("name", "pk")


def test_select_must_be_a_list_of_names():
    assert bad_request("$select[a][b]=1").message == (
        "$select must be a list of field names, e.g. $select[]=name."
    )


# $or and $and shapes


def test_or_must_be_a_list_of_objects():
    assert bad_request("$or=1").message == (
        "$or must be a list of queries, e.g. $or[0][name]=Alice&$or[1][age]=25."
    )
    assert bad_request("$and[]=1").message == (
        "Each entry of $and must be an object of field conditions, not '1'."
    )


# Values, converted by field type


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("char", "abc", "abc"),
        ("char", "", ""),
        ("char", " 1 ", " 1 "),
        ("text", "line\nbreak", "line\nbreak"),
        ("email", "a@b.example", "a@b.example"),
        ("integer", "25", 25),
        ("integer", "-3", -3),
        ("integer", "+7", 7),
        ("integer", "", None),
        ("integer", "9223372036854775807", 2**63 - 1),
        ("big", "1099511627776", 2**40),
        ("small", "3", 3),
        ("number", "1.5", 1.5),
        ("number", "1e3", 1000.0),
        ("number", ".5", 0.5),
        ("number", "-2", -2.0),
        ("amount", "12.50", decimal.Decimal("12.50")),
        ("amount", "3", decimal.Decimal("3")),
        ("flag", "true", True),
        ("flag", "false", False),
        ("flag", "1", True),
        ("flag", "0", False),
        ("flag", "TRUE", True),
        ("maybe", "", None),
        ("maybe", "false", False),
        ("day", "2024-02-29", datetime.date(2024, 2, 29)),
        ("day", "2024-01-02T00:00:00.000Z", datetime.date(2024, 1, 2)),
        (
            "moment",
            "2024-05-01T10:00:00Z",
            datetime.datetime(2024, 5, 1, 10, tzinfo=datetime.timezone.utc),
        ),
        (
            "moment",
            "2024-05-01T12:00:00.250+02:00",
            datetime.datetime(2024, 5, 1, 10, 0, 0, 250000, tzinfo=datetime.timezone.utc),
        ),
        (
            "moment",
            "2024-05-01T10:00:00",
            datetime.datetime(2024, 5, 1, 10, tzinfo=datetime.timezone.utc),
        ),
        (
            "moment",
            "2024-05-01",
            datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc),
        ),
        ("clock", "10:30", datetime.time(10, 30)),
        ("clock", "10:30:15.5", datetime.time(10, 30, 15, 500000)),
        (
            "uid",
            "12345678-1234-5678-1234-567812345678",
            uuid.UUID("12345678-1234-5678-1234-567812345678"),
        ),
        (
            "uid",
            "12345678123456781234567812345678",
            uuid.UUID(int=0x12345678123456781234567812345678),
        ),
        ("owner", "5", 5),
        ("owner", "", None),
    ],
)
def test_values_convert_by_field_type(sample_fields, field, value, expected):
    (condition,) = parse_query({field: value}, fields=sample_fields).conditions.conditions
    assert condition.value == expected
    assert type(condition.value) is type(expected)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("integer", "1.5", "expected an integer"),
        ("integer", "abc", "expected an integer"),
        ("integer", " 1", "expected an integer"),
        ("integer", "1_000", "expected an integer"),
        ("integer", "\u0661", "expected an integer"),
        ("integer", "9223372036854775808", "the number is out of range"),
        ("big", "-9223372036854775809", "the number is out of range"),
        ("number", "abc", "expected a number"),
        ("number", "nan", "expected a number"),
        ("number", "Infinity", "expected a number"),
        ("number", "1e999", "expected a finite number"),
        ("amount", "NaN", "expected a decimal number"),
        ("amount", "1,5", "expected a decimal number"),
        ("flag", "yes", "expected true, false, 1 or 0"),
        ("flag", "", "expected true, false, 1 or 0, not an empty value"),
        ("day", "2024-02-30", "expected a date (YYYY-MM-DD)"),
        ("day", "yesterday", "expected a date (YYYY-MM-DD)"),
        ("moment", "2024-13-01T00:00:00Z", "expected a date and time in ISO 8601"),
        ("moment", "now", "expected a date and time in ISO 8601"),
        # Valid, but their UTC time (what databases are given) is before year 1 or after 9999.
        ("moment", "9999-12-31T23:59:59-23:59", "it is out of range"),
        ("moment", "0001-01-01T00:00:00+00:01", "it is out of range"),
        ("clock", "25:00", "expected a time"),
        ("clock", "10:00+02:00", "expected a time (HH:MM[:SS[.ffffff]]) without a time zone"),
        ("uid", "nope", "expected a UUID"),
        ("owner", "x", "expected an integer"),
        ("char", "a\x00b", "it contains a NUL character"),
    ],
)
def test_a_value_that_does_not_convert_is_a_bad_request_naming_field_and_value(
    sample_fields, field, value, expected
):
    with pytest.raises(BadRequest) as caught:
        parse_query({field: value}, fields=sample_fields)
    assert caught.value.message.startswith(f"Invalid value '{value}' for field '{field}': ")
    assert expected in caught.value.message


def test_values_inside_operators_convert_too(sample_fields):
    query = parse_query(
        codec.parse("integer[$gte]=2&day[$lt]=2024-01-31&uid[$ne]=&flag[$in][]=true"),
        fields=sample_fields,
    )
    assert comparisons(query) == [
        ("integer", "$gte", 2),
        ("day", "$lt", datetime.date(2024, 1, 31)),
        ("uid", "$ne", None),
        ("flag", "$in", (True,)),
    ]
    with pytest.raises(BadRequest, match="Invalid value 'soon' for field 'day'"):
        parse_query(codec.parse("day[$gt]=soon"), fields=sample_fields)


def test_long_values_are_shortened_in_messages(sample_fields):
    with pytest.raises(BadRequest) as caught:
        parse_query({"integer": "x" * 500}, fields=sample_fields)
    assert len(caught.value.message) < 200
    assert "xxx..." in caught.value.message


@override_settings(TIME_ZONE="Europe/Paris")
def test_naive_datetimes_are_in_the_current_time_zone(sample_fields):
    (condition,) = parse_query(
        {"moment": "2024-05-01T10:00:00"}, fields=sample_fields
    ).conditions.conditions
    assert condition.value == datetime.datetime(2024, 5, 1, 8, tzinfo=datetime.timezone.utc)


def test_aware_datetimes_are_given_in_utc(sample_fields):
    # PostgreSQL refuses offsets beyond 15:59, which Python (and ISO 8601) allow.
    (condition,) = parse_query(
        {"moment": "2024-05-01T00:00:00-23:59"}, fields=sample_fields
    ).conditions.conditions
    assert condition.value == datetime.datetime(2024, 5, 1, 23, 59, tzinfo=datetime.timezone.utc)
    assert condition.value.tzinfo is datetime.timezone.utc


@override_settings(USE_TZ=False)
def test_aware_datetimes_become_naive_without_use_tz(sample_fields):
    (condition,) = parse_query(
        {"moment": "2024-05-01T10:00:00Z"}, fields=sample_fields
    ).conditions.conditions
    assert condition.value == datetime.datetime(2024, 5, 1, 10)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("integer", 5, 5),
        ("integer", 5.0, 5),
        ("flag", True, True),
        ("number", 2, 2.0),
        ("amount", decimal.Decimal("1.5"), decimal.Decimal("1.5")),
        ("day", datetime.date(2024, 1, 2), datetime.date(2024, 1, 2)),
        ("uid", uuid.UUID(int=1), uuid.UUID(int=1)),
        ("maybe", None, None),
    ],
)
def test_python_values_from_internal_calls_are_accepted(sample_fields, field, value, expected):
    (condition,) = parse_query({field: value}, fields=sample_fields).conditions.conditions
    assert condition.value == expected


def test_python_values_that_do_not_fit_are_a_bad_request(sample_fields):
    with pytest.raises(BadRequest, match=r"Invalid value '1\.5' for field 'integer'"):
        parse_query({"integer": 1.5}, fields=sample_fields)
    with pytest.raises(BadRequest, match="for field 'uid': expected a UUID"):
        parse_query({"uid": 1.5}, fields=sample_fields)
    with pytest.raises(BadRequest, match="for field 'day': expected a date"):
        parse_query({"day": 20240101}, fields=sample_fields)
    late = datetime.datetime.max.replace(tzinfo=datetime.timezone(-datetime.timedelta(hours=1)))
    with pytest.raises(BadRequest, match="for field 'moment': it is out of range"):
        parse_query({"moment": late}, fields=sample_fields)


# Optional operators


def test_like_applies_to_text_fields_with_a_text_pattern(sample_fields):
    options = {"fields": sample_fields, "operators": ["$like"]}
    assert comparisons(parse("char[$like]=%25a_", **options)) == [("char", "$like", "%a_")]
    assert bad_request("integer[$like]=1", **options).message == (
        "Invalid query for field 'integer': $like applies to text fields only."
    )
    assert bad_request("char[$like]=a%5C", **options).message == (
        "Invalid value for field 'char': the $like pattern ends with the escape character '\\' "
        "(write '\\\\' for a backslash)."
    )
    assert comparisons(parse("char[$like]=a%5C%5C", **options)) == [("char", "$like", "a\\\\")]


def test_model_query_fields_checks_names():
    assert list(model_query_fields(Person, fields=["name", "age"])) == ["name", "age"]
    assert "id" not in model_query_fields(Person, exclude=["id"])
    with pytest.raises(ImproperlyConfigured, match="Person has no field\\(s\\) 'nope'"):
        model_query_fields(Person, fields=["nope"])


def test_python_queries_with_odd_keys_are_a_bad_request_not_a_crash():
    with pytest.raises(BadRequest) as caught:
        parse_query({1: "x"}, fields=PERSON_FIELDS)
    assert caught.value.message.startswith("Invalid query field '1'")
    with pytest.raises(BadRequest) as caught:
        parse_query({"$sort": {"name": [{"$x": 1}]}}, fields=PERSON_FIELDS)
    assert caught.value.message == "Invalid query parameter $x"


def test_the_package_exports_its_public_surface():
    import django_services.query as package

    assert len(set(package.__all__)) == len(package.__all__)
    public = {name for name in vars(package) if not name.startswith("_")}
    assert set(package.__all__) <= public
    assert {"codec", "parse_query", "find", "to_q", "FeathersQuery"} <= set(package.__all__)

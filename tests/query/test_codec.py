"""
The query-string codec against Node's `qs` (6.16, as Express 4.22 resolves it).

Every expected value in the tables below was produced by `qs.parse(string, {allowPrototypes:
true, arrayLimit: 1000})` or `qs.stringify(object)` in Node.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import os
import subprocess
import sys
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from django_services.errors import BadRequest
from django_services.query import _qs, codec

PARSED_BY_QS = [
    ("a=1&a=2", {"a": ["1", "2"]}),
    ("a[]=x&a[]=y", {"a": ["x", "y"]}),
    ("a[1]=y&a[0]=x", {"a": ["x", "y"]}),
    ("a[0]=x&a[2]=z", {"a": ["x", "z"]}),
    ("a[b]=c&a=d", {"a": [{"b": "c"}, "d"]}),
    ("a=d&a[b]=c", {"a": ["d", {"b": "c"}]}),
    ("a[b][c]=1&a[b]=2", {"a": {"b": [{"c": "1"}, "2"]}}),
    ("a.b=1", {"a.b": "1"}),
    ("a=+b+%20c", {"a": " b  c"}),
    ("flag", {"flag": ""}),
    ("a=b=c", {"a": "b=c"}),
    ("a=1;b=2", {"a": "1;b=2"}),
    ("=x", {}),
    ("&&a=1&&", {"a": "1"}),
    ("%24sort%5Bname%5D=-1", {"$sort": {"name": "-1"}}),
    ("a%5bb%5d=c", {"a": {"b": "c"}}),
    ("a[$in][0]=x&a[$in][]=y", {"a": {"$in": ["x", "y"]}}),
    ("a[0]=1&a[b]=2", {"a": {"0": "1", "b": "2"}}),
    ("a[0][b]=1&a[0][c]=2", {"a": [{"b": "1", "c": "2"}]}),
    ("a[][b]=1", {"a": [{"b": "1"}]}),
    ("a[=1", {"a": {"[": "1"}}),
    ("a[b=1", {"a": {"[b": "1"}}),
    ("a]=1", {"a]": "1"}),
    ("a[b][c[d]]=1", {"a": {"b": {"c[d]": "1"}}}),
    ("a[b[c]=1", {"a": {"[b[c]": "1"}}),
    ("a[b]=1&a=x&[a]=y", {"a": [{"b": "1"}, "x", "y"]}),
    ("a[b]=1&a=x&a[c]=2&[a]=y", {"a": {"0": {"b": "1"}, "1": "x", "2": "y", "c": "2"}}),
    ("b=1&a=2&7=x&a[1]=y", {"7": "x", "b": "1", "a": ["2", "y"]}),
    ("a[x]=1&a[3]=y", {"a": {"3": "y", "x": "1"}}),
    ("a[" + "9" * 5000 + "]=1", {"a": {"9" * 5000: "1"}}),
    ("9" * 5000 + "=1", {"9" * 5000: "1"}),
    ("[a]=1", {"a": "1"}),
    ("[]=1", {"0": "1"}),
    ("__proto__[x]=1&y=2", {"y": "2"}),
    ("a[__proto__]=1&a[b]=2", {"a": {"b": "2"}}),
    ("constructor=1", {"constructor": "1"}),
    ("a=%FF", {"a": "%FF"}),
    ("a=%E2%9C%93", {"a": "\u2713"}),
    ("a=%", {"a": "%"}),
    ("a=%zz%20", {"a": "%zz%20"}),
    ("?a=1", {"?a": "1"}),
    ("x[1]&x", {"x": [""]}),
    ("0=a&0[b]=c", {"0": ["a", {"b": "c"}]}),
    ("a[01]=x", {"a": {"01": "x"}}),
    ("a[-1]=x", {"a": {"-1": "x"}}),
    ("a[999]=x", {"a": ["x"]}),
    ("a[b]=1&a[b]=2", {"a": {"b": ["1", "2"]}}),
    ("a=x&a[]=y", {"a": ["x", "y"]}),
    ("a[]=1&a[5]=2", {"a": ["1", "2"]}),
    ("a[b]]=1", {"a": {"b": "1"}}),
    ("a[b]x[c]=1", {"a": {"b": {"c": "1"}}}),
    ("a[b=c]=d", {"a": {"b=c": "d"}}),
    ("\u00e9=%C3%A9", {"\u00e9": "\u00e9"}),
    (
        "name=a%20b&%24sort%5Bname%5D=1&tags%5B%24in%5D%5B0%5D=x&tags%5B%24in%5D%5B1%5D=y"
        "&%24limit=5&%24select%5B0%5D=name&%24select%5B1%5D=id&nested%5Bdeep%5D%5Bdeeper%5D=1"
        "&nul=&bool=true",
        {
            "name": "a b",
            "$sort": {"name": "1"},
            "tags": {"$in": ["x", "y"]},
            "$limit": "5",
            "$select": ["name", "id"],
            "nested": {"deep": {"deeper": "1"}},
            "nul": "",
            "bool": "true",
        },
    ),
]


@pytest.mark.parametrize(("query_string", "expected"), PARSED_BY_QS)
def test_parse_gives_what_qs_gives(query_string, expected):
    parsed = codec.parse(query_string)
    assert parsed == expected
    # Keys come in the order a JavaScript object lists them, at every level.
    assert json.dumps(parsed) == json.dumps(expected)


def test_parse_of_nothing_is_an_empty_dict():
    assert codec.parse("") == {}


UTC = datetime.timezone.utc

STRINGIFIED_BY_QS = [
    ({"name": {"$in": ["a", "b"]}}, "name%5B%24in%5D%5B0%5D=a&name%5B%24in%5D%5B1%5D=b"),
    (
        # FEATHERS-REFERENCE 8.2, as observed from the Feathers REST client.
        {
            "name": "a b",
            "$sort": {"name": 1},
            "tags": {"$in": ["x", "y"]},
            "$limit": 5,
            "$select": ["name", "id"],
            "nested": {"deep": {"deeper": 1}},
            "nul": None,
            "bool": True,
        },
        "name=a%20b&%24sort%5Bname%5D=1&tags%5B%24in%5D%5B0%5D=x&tags%5B%24in%5D%5B1%5D=y"
        "&%24limit=5&%24select%5B0%5D=name&%24select%5B1%5D=id&nested%5Bdeep%5D%5Bdeeper%5D=1"
        "&nul=&bool=true",
    ),
    ({"a": []}, ""),
    ({"a": {}}, ""),
    ({"a": [[], {}]}, ""),
    ({"a": [None]}, "a%5B0%5D="),
    ({"a": [[1, 2], [3]]}, "a%5B0%5D%5B0%5D=1&a%5B0%5D%5B1%5D=2&a%5B1%5D%5B0%5D=3"),
    ({"a": [{"b": 1}, {"c": [2]}]}, "a%5B0%5D%5Bb%5D=1&a%5B1%5D%5Bc%5D%5B0%5D=2"),
    ({"a": False, "b": 0, "c": -5}, "a=false&b=0&c=-5"),
    (
        {"a": 1.5, "b": 1e21, "c": 1e-7, "d": 123456789012345680000.0, "e": 0.1 + 0.2, "f": -0.0},
        "a=1.5&b=1e%2B21&c=1e-7&d=123456789012345680000&e=0.30000000000000004&f=0",
    ),
    ({"a": float("nan"), "b": math.inf}, "a=NaN&b=Infinity"),
    ({"a": "\u00e9\u20ac\U0001f600"}, "a=%C3%A9%E2%82%AC%F0%9F%98%80"),
    ({"a": "~!*'()-_."}, "a=~%21%2A%27%28%29-_."),
    ({"a": "&=?#[]%+ /"}, "a=%26%3D%3F%23%5B%5D%25%2B%20%2F"),
    ({"a b": {"c d": 1}}, "a%20b%5Bc%20d%5D=1"),
    ({"a": ""}, "a="),
    ({"b": 1, "2": "x", "1": "y"}, "1=y&2=x&b=1"),
    (
        {"when": datetime.datetime(2024, 5, 1, 10, 0, tzinfo=UTC)},
        "when=2024-05-01T10%3A00%3A00.000Z",
    ),
    (
        {"when": {"$gte": datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)}},
        "when%5B%24gte%5D=2024-01-02T03%3A04%3A05.678Z",
    ),
    (
        {"$or": [{"name": "Alice"}, {"age": {"$gte": 18, "$lt": 25}}]},
        "%24or%5B0%5D%5Bname%5D=Alice&%24or%5B1%5D%5Bage%5D%5B%24gte%5D=18"
        "&%24or%5B1%5D%5Bage%5D%5B%24lt%5D=25",
    ),
    ({"a.b": "c"}, "a.b=c"),
]


@pytest.mark.parametrize(("query", "expected"), STRINGIFIED_BY_QS)
def test_stringify_gives_what_qs_gives(query, expected):
    assert codec.stringify(query) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (datetime.date(2024, 2, 29), "2024-02-29"),
        (datetime.time(13, 5), "13%3A05%3A00"),
        (
            datetime.datetime(
                2024, 5, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
            ),
            "2024-05-01T10%3A00%3A00.000Z",
        ),
        (
            datetime.datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC),
            "2024-05-01T10%3A00%3A00.123456Z",
        ),
        (datetime.datetime(2024, 5, 1, 10, 0), "2024-05-01T10%3A00%3A00"),
        (decimal.Decimal("12.50"), "12.50"),
        (uuid.UUID("12345678-1234-5678-1234-567812345678"), "12345678-1234-5678-1234-567812345678"),
        (2**64, "18446744073709551616"),
    ],
)
def test_stringify_writes_python_values_as_their_javascript_twins(value, expected):
    assert codec.stringify({"v": value}) == f"v={expected}"


def test_stringify_writes_tuples_and_sets_as_lists():
    assert codec.stringify({"v": (1, 2)}) == "v%5B0%5D=1&v%5B1%5D=2"
    assert codec.stringify({"v": {"b", "a"}}) == "v%5B0%5D=a&v%5B1%5D=b"


def test_stringify_of_nothing_is_empty():
    assert codec.stringify({}) == ""
    assert codec.stringify(None) == ""


# Limits


def test_1000_parameters_are_accepted_and_1001_are_a_bad_request():
    assert len(codec.parse("&".join(f"k{i}=v" for i in range(1000)))) == 1000
    with pytest.raises(BadRequest) as caught:
        codec.parse("&".join(f"k{i}=v" for i in range(1001)))
    assert caught.value.code == 400
    assert str(caught.value) == ("The query string has 1001 parameters: at most 1000 are allowed.")


def test_empty_parameters_do_not_count_against_the_limit():
    assert len(codec.parse("&".join(f"k{i}=v" for i in range(1000)) + "&&&")) == 1000


def test_five_levels_of_brackets_are_accepted_and_six_are_a_bad_request():
    assert codec.parse("a[b][c][d][e][f]=1") == {"a": {"b": {"c": {"d": {"e": {"f": "1"}}}}}}
    with pytest.raises(BadRequest) as caught:
        codec.parse("x=1&a[b][c][d][e][f][g]=1")
    assert str(caught.value) == (
        "The query parameter 'a[b][c][d][e][f][g]' is nested too deeply: "
        "it has 6 levels of brackets, the limit is 5."
    )


def test_lists_of_1000_items_are_accepted():
    assert codec.parse("&".join(["id[$in][]=1"] * 1000)) == {"id": {"$in": ["1"] * 1000}}
    assert codec.parse("&".join(f"a[{i}]={i}" for i in range(1000)))["a"][999] == "999"


def test_a_list_index_of_1000_or_more_is_a_bad_request():
    with pytest.raises(BadRequest) as caught:
        codec.parse("a[1000]=x")
    assert str(caught.value) == (
        "The query parameter 'a[1000]' uses the list index 1000: lists may have at most 1000 items."
    )


@pytest.mark.parametrize(
    "query_string",
    [
        # qs appends to a list that is already 1000 long counting its holes: an object.
        "a[999]=x&a=y",
        "a=y&a[999]=x",
        # Indexes JavaScript writes back as they are, however large.
        "a[123456789012345680000]=x",
        "a[100000000000000000000]=x",
    ],
)
def test_a_list_qs_would_turn_into_an_object_is_a_bad_request(query_string):
    with pytest.raises(BadRequest, match="at most 1000"):
        codec.parse(query_string)


def test_parts_without_a_name_count_as_parameters_only():
    assert codec.parse("=1&=2&=3&=4&a=1", list_limit=3) == {"a": "1"}
    with pytest.raises(BadRequest, match="has 3 parameters"):
        codec.parse("=1&=2&a=1", parameter_limit=2)


def test_limits_can_be_lowered():
    assert codec.parse("a[]=1&a[]=2&a[]=3", list_limit=3) == {"a": ["1", "2", "3"]}
    with pytest.raises(BadRequest) as caught:
        codec.parse("a[]=1&a[]=2&a[]=3&a[]=4", list_limit=3)
    assert (
        str(caught.value)
        == "The query parameter 'a[]' has more than 3 items: at most 3 are allowed."
    )
    with pytest.raises(BadRequest, match="'a' has more than 3 items"):
        codec.parse("a=1&a=2&a=3&a=4", list_limit=3)
    with pytest.raises(BadRequest) as caught:
        # Four different keys building one list.
        codec.parse("a[0]=1&a[1]=2&a[2]=3&a[]=4", list_limit=3)
    assert (
        str(caught.value)
        == "A list in the query string has more than 3 items: at most 3 are allowed."
    )
    with pytest.raises(BadRequest, match="at most 2 are allowed"):
        codec.parse("a=1&b=2&c=3", parameter_limit=2)
    with pytest.raises(BadRequest, match="it has 2 levels of brackets, the limit is 1"):
        codec.parse("a[b][c]=1", depth=1)


def test_the_codec_needs_neither_django_settings_nor_drf():
    script = (
        "import sys\n"
        "from django_services.query import codec\n"
        "assert codec.parse('a[b]=1') == {'a': {'b': '1'}}\n"
        "assert codec.stringify({'a': [1, None]}) == 'a%5B0%5D=1&a%5B1%5D='\n"
        "assert 'rest_framework' not in sys.modules\n"
        "from django.conf import settings\n"
        "assert not settings.configured\n"
    )
    environment = {
        key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"
    }
    completed = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True
    )
    assert completed.returncode == 0, completed.stderr


# Round trips: stringify then parse gives back the strings qs gives.

_KEYS = st.text(min_size=1, max_size=6).filter(
    lambda key: "[" not in key and "]" not in key and not key.isdecimal() and key != "__proto__"
)
_LEAVES = (
    st.text(max_size=8)
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
    | st.datetimes(timezones=st.just(UTC)).map(
        lambda moment: moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    )
    | st.dates()
)
_VALUES = st.recursive(
    _LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=12,
)
_QUERIES = st.dictionaries(_KEYS, _VALUES, max_size=5)

_OMITTED = object()


def _as_qs_returns_it(value):
    """The value `qs.parse(qs.stringify(...))` gives back, or `_OMITTED`."""
    if isinstance(value, dict):
        items = {key: _as_qs_returns_it(item) for key, item in value.items()}
        kept = {key: item for key, item in items.items() if item is not _OMITTED}
        return kept or _OMITTED
    if isinstance(value, list):
        kept = [item for item in map(_as_qs_returns_it, value) if item is not _OMITTED]
        return kept or _OMITTED
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return codec._js_number(value)
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def _depth(value):
    if isinstance(value, dict | list) and value:
        items = value.values() if isinstance(value, dict) else value
        return 1 + max(_depth(item) for item in items)
    return 0


@settings(max_examples=300, deadline=None)
@given(_QUERIES)
def test_stringify_then_parse_gives_back_the_strings(query):
    expected = _as_qs_returns_it(query)
    if expected is _OMITTED:
        expected = {}
    encoded = codec.stringify(query)
    if max((_depth(value) for value in expected.values()), default=0) > codec.MAX_DEPTH:
        with pytest.raises(BadRequest, match="nested too deeply"):
            codec.parse(encoded)
    else:
        assert codec.parse(encoded) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=codec.MAX_DEPTH + 1, max_value=12), st.text(min_size=1, max_size=5))
def test_anything_nested_deeper_than_the_limit_is_refused(depth, leaf):
    query: dict = {"leaf": leaf}
    for level in range(depth):
        query = {f"k{level}": query}
    with pytest.raises(BadRequest, match="nested too deeply"):
        codec.parse(codec.stringify(query))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=6), min_size=1, max_size=50))
def test_in_lists_come_back_in_order(values):
    assert codec.parse(codec.stringify({"name": {"$in": values}})) == {"name": {"$in": values}}


# Keys that are plain object paths take a short way: it must give what the general way gives.

_SEGMENTS = st.sampled_from(
    ["a", "b", "$in", "$gt", "$sort", "age", "0", "1", "01", "-1", "__proto__", "", "x y", "é"]
)
_KEYS = st.builds(
    lambda name, segments, tail: name + "".join(f"[{segment}]" for segment in segments) + tail,
    _SEGMENTS,
    st.lists(_SEGMENTS, max_size=codec.MAX_DEPTH + 1),
    st.sampled_from(["", "", "", "[]", "]", "[", "x"]),
)


@settings(max_examples=500)
@given(st.lists(st.tuples(_KEYS, st.sampled_from(["1", "", "v", "a b"])), max_size=6))
def test_plain_object_keys_parse_as_the_general_steps_parse_them(pairs):
    values: dict = {}
    for key, value in pairs:
        if not key:
            continue
        previous = values.get(key)
        if previous is None:
            values[key] = value
        else:
            values[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
    plain = _qs.plain_objects(values, codec.MAX_DEPTH)
    if plain is None:
        return
    general = codec._merged(values, codec.MAX_DEPTH, codec.MAX_LIST_ITEMS)
    # Same values, and the same key order at every level.
    assert json.dumps(plain) == json.dumps(general)


def test_a_typical_feathers_query_takes_the_short_way():
    values = {"age[$gt]": "30", "$sort[age]": "-1", "$limit": "10", "name[$in]": ["a", "b"]}
    assert _qs.plain_objects(values, codec.MAX_DEPTH) == {
        "age": {"$gt": "30"},
        "$sort": {"age": "-1"},
        "$limit": "10",
        "name": {"$in": ["a", "b"]},
    }
    assert _qs.plain_objects({"a[0]": "x"}, codec.MAX_DEPTH) is None
    assert _qs.plain_objects({"a": "1", "a[b]": "2"}, codec.MAX_DEPTH) is None

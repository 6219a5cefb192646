"""Request parsing (CONTRACT §2): bodies, query strings and the params a service receives."""

from __future__ import annotations

import json
import re

import pytest

from django_services.server.rest.parsers import json_depth
from django_services.server.rest.renderers import JSONRenderer
from tests.server.http import S, assert_error, body, send

ECHO = S + "EchoService"


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "echo": ECHO,
            "multi": {"class": ECHO, "multi": True},
            "params": S + "ParamsService",
            "request-data": S + "RequestDataService",
            "read-first": S + "PermissionReadsDataService",
        }
    )


def bad_request(response, message):
    assert_error(response, "BadRequest", message, 400, "bad-request")


def nested(depth):
    value = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"not json", "Invalid JSON in the body: Expecting value: line 1 column 1 (char 0)"),
        (b'{"a": 1', "Invalid JSON in the body: Expecting ',' delimiter: line 1 column 8 (char 7)"),
        (b'{"a": 1}}', "Invalid JSON in the body: Extra data: line 1 column 9 (char 8)"),
        (b'"a string"', "The body must be a JSON object or array, not a string."),
        (b"42", "The body must be a JSON object or array, not a number."),
        (b"4.5e3", "The body must be a JSON object or array, not a number."),
        (b"true", "The body must be a JSON object or array, not a boolean."),
        (b"null", "The body must be a JSON object or array, not null."),
        (b'{"a": NaN}', "Invalid JSON in the body: NaN is not valid JSON"),
        (b'{"a": -Infinity}', "Invalid JSON in the body: -Infinity is not valid JSON"),
        (b'{"a": 1e999}', "Invalid JSON in the body: the number 1e999 is out of range"),
        (b'{"a": "\xff"}', "The body is not valid utf-8 text."),
        (
            b'{"a": ' + b"9" * 5000 + b"}",
            "Invalid JSON in the body: an integer has 5000 digits, more than the 4300 allowed",
        ),
    ],
)
@pytest.mark.parametrize("verb", ["POST", "PUT", "PATCH"])
def test_malformed_bodies_are_bad_requests(api, raw, message, verb):
    bad_request(send(api, verb, "/echo/1" if verb != "POST" else "/echo", raw=raw), message)


def test_body_nested_32_levels_is_accepted_33_is_not(api):
    response = send(api, "POST", "/echo", nested(32))
    assert response.status_code == 201
    assert json_depth(body(response)["data"]) == 32
    bad_request(
        send(api, "POST", "/echo", nested(33)),
        "The body is nested too deeply: at most 32 levels are allowed.",
    )
    bad_request(
        send(
            api,
            "POST",
            "/multi",
            [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
        ),
        "The body is nested too deeply: at most 32 levels are allowed.",
    )


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_body_deeper_than_the_interpreter_can_decode_is_a_bad_request(api, depth):
    raw = ("[" * depth + "]" * depth).encode()
    bad_request(
        send(api, "POST", "/multi", raw=raw),
        "The body is nested too deeply: at most 32 levels are allowed.",
    )


def test_depth_limit_comes_from_settings(api, serve):
    serve({"echo": ECHO}, BODY_DEPTH_LIMIT=3)
    assert send(api, "POST", "/echo", nested(3)).status_code == 201
    bad_request(
        send(api, "POST", "/echo", nested(4)),
        "The body is nested too deeply: at most 3 levels are allowed.",
    )


def test_body_larger_than_django_allows_is_a_bad_request(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    assert send(api, "POST", "/echo", {"text": "x" * 80}).status_code == 201
    bad_request(
        send(api, "POST", "/echo", {"text": "x" * 100}),
        "The request body is too large: at most 100 bytes are allowed.",
    )


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
    ],
)
def test_other_content_types_are_bad_requests(api, content_type):
    response = send(api, "POST", "/echo", raw=b"a=1", content_type=content_type)
    assert response.status_code == 400
    answer = body(response)
    assert answer["name"] == "BadRequest"
    assert answer["message"] == (
        f'Unsupported media type "{content_type}" in request. '
        "Send JSON (Content-Type: application/json)."
    )


def test_body_without_content_type_is_a_bad_request(api):
    bad_request(
        send(api, "POST", "/echo", raw=b'{"a": 1}', content_type=""),
        "The body has no Content-Type: send JSON (application/json).",
    )


def test_json_with_charset_parameter(api):
    response = send(
        api,
        "POST",
        "/echo",
        raw='{"t":"é"}'.encode(),
        content_type="application/json; charset=utf-8",
    )
    assert body(response)["data"] == {"t": "é"}
    response = send(
        api,
        "POST",
        "/echo",
        raw='{"t":"é"}'.encode("latin-1"),
        content_type="application/json; charset=latin-1",
    )
    assert body(response)["data"] == {"t": "é"}


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
def test_drf_s_request_gives_the_call_s_data_inside_the_call(api, content_type):
    response = send(
        api,
        "POST",
        "/request-data",
        raw=b'{"name": "\xc3\xa9", "tags": [1]}',
        content_type=content_type,
    )
    assert response.status_code == 201
    assert body(response) == {"data": {"name": "é", "tags": [1]}, "same": True, "post": {}}


def test_a_body_a_permission_read_first_is_the_call_s_data(api):
    response = send(api, "POST", "/read-first", {"name": "Ada"})
    assert response.status_code == 201, response.content
    assert body(response) == {"data": {"name": "Ada"}, "same": True}


def test_empty_body_is_an_empty_object(api):
    response = api.generic("POST", "/echo")
    assert (response.status_code, body(response)["data"]) == (201, {})


def test_body_of_get_and_delete_is_not_read(api):
    response = send(api, "GET", "/echo/1", raw=b"not json")
    assert response.status_code == 200
    response = send(api, "DELETE", "/echo/1", raw=b"not json")
    assert response.status_code == 200


def test_answers_are_compact_utf8_json(api):
    response = send(api, "POST", "/echo", {"text": "héllo ✓", "n": [1, 2]})
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert b'"data":{"text":"h\xc3\xa9llo \xe2\x9c\x93","n":[1,2]}' in response.content


def test_lone_surrogates_are_sent_back_escaped_as_javascript_does(api):
    # Valid JSON, and a valid JavaScript string, but no UTF-8 can encode it.
    response = send(api, "POST", "/echo", raw=b'{"text": "\\ud800 \xc3\xa9"}')
    assert response.status_code == 201
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert b'"text":"\\ud800 \\u00e9"' in response.content
    assert body(response)["data"] == {"text": "\ud800 \u00e9"}


@pytest.mark.parametrize("accept", ["text/html", "text/plain", "application/xml", "image/*"])
def test_any_accept_header_gets_json(api, accept):
    response = api.get("/echo", HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"


def test_the_renderer_indents_as_its_media_type_or_context_say():
    renderer = JSONRenderer()
    data = {"a": [1]}
    assert renderer.render(data, "application/json") == b'{"a":[1]}'
    assert renderer.render(data, "application/json; indent=2") == b'{\n  "a": [\n    1\n  ]\n}'
    assert renderer.render(data, "application/json", {"indent": 1}) == b'{\n "a": [\n  1\n ]\n}'


def test_format_query_parameter_is_a_query_field(api):
    answer = body(api.get("/echo?format=xml"))
    assert answer["query"] == {"format": "xml"}


@pytest.mark.parametrize(
    ("query_string", "query"),
    [
        ("a=1&b=true&c=&d", {"a": "1", "b": "true", "c": "", "d": ""}),
        ("a[b][c]=1", {"a": {"b": {"c": "1"}}}),
        ("a[$in][0]=x&a[$in][1]=y", {"a": {"$in": ["x", "y"]}}),
        ("a[$in][]=x&a[$in][]=y", {"a": {"$in": ["x", "y"]}}),
        ("a=1&a=2", {"a": ["1", "2"]}),
        ("name=a+b%20c", {"name": "a b c"}),
        ("%24sort%5Bname%5D=-1", {"$sort": {"name": "-1"}}),
        ("a.b=1", {"a.b": "1"}),
    ],
)
def test_query_strings_parse_like_express(api, query_string, query):
    assert body(api.get(f"/echo?{query_string}"))["query"] == query


@pytest.mark.parametrize(
    ("query_string", "limit"),
    [
        ("a[b][c][d][e][f][g]=1", "5"),
        ("&".join(f"k{i}=1" for i in range(1001)), "1000"),
        ("&".join("a[]=1" for _ in range(1001)), "1000"),
        ("a[1000]=1", "1000"),
    ],
)
def test_query_strings_beyond_the_limits_are_bad_requests(api, query_string, limit):
    # The codec words the message; the answer is a 400 naming the limit.
    response = api.get(f"/echo?{query_string}")
    assert response.status_code == 400
    answer = body(response)
    assert (answer["name"], answer["className"]) == ("BadRequest", "bad-request")
    assert re.search(rf"\b{limit}\b", answer["message"])


def test_query_limits_come_from_settings(api, serve):
    serve({"echo": ECHO}, QUERY_DEPTH_LIMIT=1, QUERY_PARAMETER_LIMIT=2)
    assert body(api.get("/echo?a[b]=1"))["query"] == {"a": {"b": "1"}}
    assert api.get("/echo?a[b][c]=1").status_code == 400
    assert api.get("/echo?a=1&b=2&c=3").status_code == 400


def test_params_of_an_anonymous_request(api):
    answer = body(api.get("/params?x=1", HTTP_X_TRACE="abc"))
    assert answer["query"] == {"x": "1"}
    assert answer["route"] == {}
    assert answer["provider"] == "rest"
    assert answer["user"] is None
    assert answer["authentication"] is None
    assert answer["headers"]["x-trace"] == "abc"
    assert all(name == name.lower() for name in answer["headers"])


@pytest.mark.django_db
def test_params_of_an_authenticated_request(api):
    from tests.testapp.models import User

    api.force_login(User.objects.create_user(email="u@example.com", password="pw"))
    answer = body(api.get("/params"))
    assert answer["user"] == "u@example.com"
    assert "cookie" in answer["headers"]


def test_json_depth_counts_containers():
    assert json_depth(1) == 0
    assert json_depth({}) == 1
    assert json_depth([{"a": [1]}]) == 3
    assert json_depth(json.loads("[" * 500 + "]" * 500)) == 500
    assert json_depth(json.loads("[" * 500 + "]" * 500), limit=10) == 11

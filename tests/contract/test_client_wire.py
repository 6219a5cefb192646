"""
The exact requests the client sends (CONTRACT section 8), checked byte for byte by a real
HTTP server on loopback, with each of the four connection kinds.
"""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest

from django_services.errors import BadRequest
from tests.client.wire import Reply


def test_find_sends_get_with_accept_and_no_body(harness, wire):
    todos = harness.connect(wire.url).service("todos")

    result = harness.run(todos.find())

    request = wire.last
    assert (request.method, request.target, request.body) == ("GET", "/todos", b"")
    assert request.header("Accept") == "application/json"
    assert request.header("Content-Type") is None
    assert request.header("X-Service-Method") is None
    assert result == {"method": "GET", "target": "/todos"}


@pytest.mark.parametrize(
    ("call", "method", "target", "body"),
    [
        (lambda s: s.get(1), "GET", "/todos/1", b""),
        (lambda s: s.get(0), "GET", "/todos/0", b""),
        (lambda s: s.create({"text": "a"}), "POST", "/todos", b'{"text":"a"}'),
        (lambda s: s.create([{"n": 1}, {"n": 2}]), "POST", "/todos", b'[{"n":1},{"n":2}]'),
        (lambda s: s.update(1, {"text": "b"}), "PUT", "/todos/1", b'{"text":"b"}'),
        (lambda s: s.patch(1, {"done": True}), "PATCH", "/todos/1", b'{"done":true}'),
        (lambda s: s.remove(1), "DELETE", "/todos/1", b""),
        (
            lambda s: s.patch(None, {"done": True}, query={"done": False}),
            "PATCH",
            "/todos?done=false",
            b'{"done":true}',
        ),
        (lambda s: s.remove(None, query={"done": True}), "DELETE", "/todos?done=true", b""),
    ],
    ids=["get", "get-0", "create", "create-many", "update", "patch", "remove", "patch-many",
         "remove-many"],
)  # fmt: skip
def test_standard_methods(harness, wire, call, method, target, body):
    todos = harness.connect(wire.url).service("todos")

    harness.run(call(todos))

    request = wire.last
    assert (request.method, request.target, request.body) == (method, target, body)
    assert request.header("Accept") == "application/json"
    has_body = method in ("POST", "PUT", "PATCH")
    assert request.header("Content-Type") == ("application/json" if has_body else None)
    assert request.header("X-Service-Method") is None


def test_custom_method_posts_with_x_service_method(harness, wire):
    app = harness.app(wire.url)
    app.use("todos", app.connection.service("todos"), methods=["find", "markAllComplete"])

    result = harness.run(
        app.service("todos").markAllComplete({"complete": True}, query={"owner": "ada"})
    )

    request = wire.last
    assert (request.method, request.target) == ("POST", "/todos?owner=ada")
    assert request.json() == {"complete": True}
    assert request.header("Content-Type") == "application/json"
    assert request.header("X-Service-Method") == "markAllComplete"
    assert result == {"method": "POST", "target": "/todos?owner=ada"}


def test_query_is_encoded_as_qs_stringify(harness, wire):
    # The query and the encoded string Feathers' rest-client sends for it (FEATHERS-REFERENCE 8.2).
    query = {
        "name": "a b",
        "$sort": {"name": 1},
        "tags": {"$in": ["x", "y"]},
        "$limit": 5,
        "$select": ["name", "id"],
        "nested": {"deep": {"deeper": 1}},
        "nul": None,
        "bool": True,
    }
    expected = (
        "name=a%20b&%24sort%5Bname%5D=1&tags%5B%24in%5D%5B0%5D=x&tags%5B%24in%5D%5B1%5D=y"
        "&%24limit=5&%24select%5B0%5D=name&%24select%5B1%5D=id&nested%5Bdeep%5D%5Bdeeper%5D=1"
        "&nul=&bool=true"
    )
    messages = harness.connect(wire.url).service("messages")

    harness.run(messages.find(query=query))

    assert wire.last.target == f"/messages?{expected}"


def test_query_values_empty_collections_and_dates(harness, wire):
    messages = harness.connect(wire.url).service("messages")
    moment = datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc)

    harness.run(messages.find(query={"a": [], "b": {}, "at": {"$gt": moment}, "n": 1.5}))
    harness.run(messages.find(query={}))

    assert wire.requests[0].target == "/messages?at%5B%24gt%5D=2024-05-01T12%3A30%3A00.000Z&n=1.5"
    assert wire.requests[1].target == "/messages"


@pytest.mark.parametrize(
    ("id", "segment"),
    [
        ("a b/c?d", "a%20b%2Fc%3Fd"),
        ("-_.!~*'()", "-_.!~*'()"),
        ("#%&+=,;:@$", "%23%25%26%2B%3D%2C%3B%3A%40%24"),
        ("é☃", "%C3%A9%E2%98%83"),
        ("[x]", "%5Bx%5D"),
        (42, "42"),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
    ],
)
def test_ids_are_encoded_as_encode_uri_component(harness, wire, id, segment):
    messages = harness.connect(wire.url).service("messages")

    harness.run(messages.get(id, query={"x": 1}))
    harness.run(messages.remove(id))

    assert wire.requests[0].target == f"/messages/{segment}?x=1"
    assert wire.requests[1].target == f"/messages/{segment}"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.get(None), "id for 'get' is required"),
        (lambda s: s.get(""), "id for 'get' is required"),
        (lambda s: s.update(None, {}), "id for 'update' is required"),
        (lambda s: s.update("", {}), "id for 'update' is required"),
        (lambda s: s.patch("", {}), "id for 'patch' is required"),
        (lambda s: s.remove(""), "id for 'remove' is required"),
    ],
)
def test_missing_id_is_bad_request_before_sending(harness, wire, call, message):
    messages = harness.connect(wire.url).service("messages")

    with pytest.raises(BadRequest) as caught:
        harness.run(call(messages))

    assert caught.value.message == message
    assert wire.requests == []


def test_route_placeholders_are_filled_and_encoded(harness, wire):
    notes = harness.connect(wire.url).service("users/:userId/notes")

    harness.run(notes.find(route={"userId": 42}))
    harness.run(notes.get(3, {"route": {"userId": "a b/c"}, "query": {"x": "y"}}))

    assert wire.requests[0].target == "/users/42/notes"
    assert wire.requests[1].target == "/users/a%20b%2Fc/notes/3?x=y"


def test_missing_route_parameter_is_bad_request_before_sending(harness, wire):
    notes = harness.connect(wire.url).service("users/:userId/notes")

    with pytest.raises(BadRequest, match="route parameter 'userId'"):
        harness.run(notes.find(route={"other": 1}))

    assert wire.requests == []


def test_base_path_and_nested_service_names(harness, wire):
    connection = harness.connect(wire.url + "/api/")

    harness.run(connection.service("/v1/messages/").find())

    assert wire.last.target == "/api/v1/messages"


def test_header_precedence(harness, wire):
    connection = harness.connect(
        wire.url,
        {"headers": {"X-Api-Version": "1", "X-Both": "options", "Content-Type": "text/plain"}},
    )
    todos = connection.service("todos")

    harness.run(todos.create({"a": 1}, headers={"x-both": "params", "X-Number": 7}))
    harness.run(todos.find(headers={"accept": "application/vnd.api+json", "X-Api-Version": None}))

    created, found = wire.requests
    # The method's Content-Type wins over the connection's, params' headers win over both.
    assert created.header("X-Api-Version") == "1"
    assert created.header("X-Both") == "params"
    assert created.header("X-Number") == "7"
    assert created.header("Content-Type") == "application/json"
    assert created.header("Accept") == "application/json"
    # Without a body, the connection's Content-Type is sent as it is; None removes a header.
    assert found.header("Content-Type") == "text/plain"
    assert found.header("Accept") == "application/vnd.api+json"
    assert found.header("X-Api-Version") is None


def test_params_dict_and_keyword_arguments(harness, wire):
    todos = harness.connect(wire.url).service("todos")

    harness.run(todos.find({"query": {"a": 1}, "headers": {"X-A": "1"}}))
    harness.run(todos.find({"query": {"a": 1}, "headers": {"X-A": "1"}}, query={"b": 2}))

    assert wire.requests[0].target == "/todos?a=1"
    assert wire.requests[0].header("X-A") == "1"
    assert wire.requests[1].target == "/todos?b=2"
    assert wire.requests[1].header("X-A") == "1"


def test_body_values_are_encoded_like_json_stringify(harness, wire):
    todos = harness.connect(wire.url).service("todos")
    plus_two = datetime.timezone(datetime.timedelta(hours=2))
    data = {
        "text": "héllo",
        "at": datetime.datetime(2024, 5, 1, 14, 30, tzinfo=plus_two),
        "day": datetime.date(2024, 5, 1),
        "amount": decimal.Decimal("1.50"),
        "uid": uuid.UUID(int=2),
        "none": None,
    }  # fmt: skip

    harness.run(todos.create(data))

    expected = (
        '{"text":"héllo","at":"2024-05-01T12:30:00.000Z","day":"2024-05-01","amount":"1.50",'
        '"uid":"00000000-0000-0000-0000-000000000002","none":null}'
    )
    assert wire.last.body == expected.encode()


@pytest.mark.parametrize("data", [{"x": float("nan")}, {"x": object()}])
def test_data_json_can_not_hold_is_bad_request_before_sending(harness, wire, data):
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(BadRequest, match="can not be sent as JSON"):
        harness.run(todos.create(data))

    assert wire.requests == []


def test_custom_method_without_data_sends_no_body(harness, wire):
    app = harness.app(wire.url)
    app.use("jobs", app.connection.service("jobs"), methods=["run"])

    harness.run(app.service("jobs").run())

    assert (wire.last.method, wire.last.body) == ("POST", b"")
    assert wire.last.header("X-Service-Method") == "run"


def test_created_record_is_returned(harness, wire):
    wire.reply(Reply(201, {"id": 7, "text": "a"}))
    todos = harness.connect(wire.url).service("todos")

    assert harness.run(todos.create({"text": "a"})) == {"id": 7, "text": "a"}

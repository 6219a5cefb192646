"""
The client against the project's own server (pytest-django's live_server, real HTTP on loopback),
with each of the four connection kinds: what the client sends is what the services receive, and
what they answer (results, 204s, errors, tokens) comes back intact.
"""

from __future__ import annotations

import pytest

from django_services.client import MemoryStorage, authentication_client
from django_services.errors import (
    BadRequest,
    Conflict,
    GeneralError,
    Gone,
    MethodNotAllowed,
    NotAuthenticated,
    NotFound,
    NotImplemented,
    PaymentError,
    Unprocessable,
)

EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}

pytestmark = pytest.mark.usefixtures("live_services")


@pytest.fixture
def user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)


def echo_app(harness, live_server, options=None):
    app = harness.app(live_server.url, options)
    methods = ["find", "get", "create", "update", "patch", "remove", "shout"]
    app.use("echo", app.connection.service("echo"), methods=methods)
    return app


def test_every_standard_method(harness, live_server):
    echo = echo_app(harness, live_server).service("echo")
    run = harness.run

    found = run(echo.find(query={"a": "1"}))
    got = run(echo.get(7, query={"a": "1"}))
    created = run(echo.create({"text": "hi", "n": 1, "tags": ["x"]}))
    updated = run(echo.update(7, {"text": "all"}))
    patched = run(echo.patch(7, {"text": "some"}))
    removed = run(echo.remove(7))
    patched_many = run(echo.patch(None, {"read": True}, query={"read": "false"}))
    removed_many = run(echo.remove(None, query={"read": "true"}))

    assert (found["method"], found["query"]) == ("find", {"a": "1"})
    assert (got["method"], got["id"], got["query"]) == ("get", "7", {"a": "1"})
    assert (created["method"], created["data"]) == ("create", {"text": "hi", "n": 1, "tags": ["x"]})
    assert (updated["method"], updated["id"], updated["data"]) == ("update", "7", {"text": "all"})
    assert (patched["method"], patched["id"], patched["data"]) == ("patch", "7", {"text": "some"})
    assert (removed["method"], removed["id"]) == ("remove", "7")
    assert (patched_many["method"], patched_many["id"]) == ("patch", None)
    assert patched_many["query"] == {"read": "false"}
    assert (removed_many["method"], removed_many["id"]) == ("remove", None)
    for answer in (found, got, removed, created, updated, patched):
        assert answer["headers"]["accept"] == "application/json"
    for answer in (created, updated, patched):
        assert answer["headers"]["content-type"] == "application/json"


def test_custom_method(harness, live_server):
    echo = echo_app(harness, live_server).service("echo")

    shouted = harness.run(echo.shout({"text": "hi"}, query={"lang": "en"}))

    assert shouted["method"] == "shout"
    assert shouted["data"] == {"text": "HI"}
    assert shouted["query"] == {"lang": "en"}
    assert shouted["headers"]["x-service-method"] == "shout"


def test_custom_method_the_server_does_not_expose(harness, live_server):
    app = harness.app(live_server.url)
    app.use("echo", app.connection.service("echo"), methods=["whisper"])

    with pytest.raises(MethodNotAllowed) as caught:
        harness.run(app.service("echo").whisper({}))

    assert caught.value.message == "Method `whisper` is not supported by this endpoint."


def test_query_round_trip(harness, live_server):
    echo = harness.connect(live_server.url).service("echo")
    query = {
        "name": "a b&c=d",
        "age": {"$in": [1, 2, 3], "$gt": 0},
        "$or": [{"read": False}, {"text": {"$ne": None}}],
        "$sort": {"name": 1, "age": -1},
        "$select": ["name", "age"],
        "$limit": 10,
        "empty": [],
        "unicode": "é☃",
    }

    answer = harness.run(echo.find(query=query))

    # Query values travel as strings; empty lists are left out, as qs.stringify does.
    assert answer["query"] == {
        "name": "a b&c=d",
        "age": {"$in": ["1", "2", "3"], "$gt": "0"},
        "$or": [{"read": "false"}, {"text": {"$ne": ""}}],
        "$sort": {"name": "1", "age": "-1"},
        "$select": ["name", "age"],
        "$limit": "10",
        "unicode": "é☃",
    }


@pytest.mark.parametrize("id", ["a b", "é☃", "x?y#z", "100%", "a+b=c&d", "-_.!~*'()"])
def test_ids_arrive_as_sent(harness, live_server, id):
    # Ids with "/" are left out: a WSGI server decodes the path before Django sees it.
    echo = harness.connect(live_server.url).service("echo")

    assert harness.run(echo.get(id))["id"] == id
    assert harness.run(echo.remove(id))["id"] == id


def test_nested_service_path_and_route_params(harness, live_server):
    app = harness.app(live_server.url)

    messages = harness.run(app.service("api/v1/messages").find())
    notes = harness.run(app.service("users/:userId/echo").get(3, route={"userId": 42}))
    spaced = harness.run(app.service("users/:userId/echo").find(route={"userId": "a b"}))

    assert messages["method"] == "find"
    assert (notes["route"], notes["id"]) == ({"userId": "42"}, "3")
    assert spaced["route"] == {"userId": "a b"}


def test_connection_headers_reach_the_service(harness, live_server):
    app = echo_app(harness, live_server, {"headers": {"X-Api-Version": "1"}})

    answer = harness.run(app.service("echo").find())
    overridden = harness.run(app.service("echo").find(headers={"x-api-version": "2"}))

    assert answer["headers"]["x-api-version"] == "1"
    assert overridden["headers"]["x-api-version"] == "2"


def test_no_content_is_none(harness, live_server):
    app = harness.app(live_server.url)
    app.use("nothing", app.connection.service("nothing"), methods=["remove", "ping"])

    assert harness.run(app.service("nothing").remove(1)) is None
    assert harness.run(app.service("nothing").ping({})) is None


@pytest.mark.parametrize(
    ("key", "cls", "message", "data", "errors"),
    [
        ("bad-request", BadRequest, "Invalid data", {"extra": 1},
         {"email": ["Enter a valid email address."]}),
        ("conflict", Conflict, "Already there", {"field": "name"}, None),
        ("payment", PaymentError, "Pay first", None, None),
        ("gone", Gone, "Long gone", None, None),
        ("unprocessable", Unprocessable, "Can not do", [1, 2], None),
        ("teapot-like", NotImplemented, "Not yet", None, None),
    ],
)  # fmt: skip
def test_service_errors_round_trip(harness, live_server, key, cls, message, data, errors):
    failing = harness.connect(live_server.url).service("failing")

    with pytest.raises(cls) as caught:
        harness.run(failing.get(key))

    error = caught.value
    assert type(error) is cls
    assert (error.name, error.message, error.code) == (cls.__name__, message, cls.code)
    assert error.class_name == error.className == cls.class_name
    assert (error.data, error.errors) == (data, errors)
    assert error.response is not None


def test_unexpected_server_error_is_general_error(harness, live_server):
    failing = harness.connect(live_server.url).service("failing")

    with pytest.raises(GeneralError) as caught:
        harness.run(failing.get("python"))

    assert caught.value.code == 500
    assert "division" not in caught.value.message  # DEBUG is off: no internals


def test_transport_errors_of_the_server(harness, live_server):
    connection = harness.connect(live_server.url)

    with pytest.raises(NotFound) as unknown:
        harness.run(connection.service("nowhere").find(query={"a": "1"}))
    with pytest.raises(MethodNotAllowed) as unsupported:
        harness.run(connection.service("readonly").create({"text": "x"}))
    with pytest.raises(NotFound):
        harness.run(connection.service("echo/1/2").find())

    assert unknown.value.message == "Page not found"
    assert unknown.value.data == {"url": "/nowhere?a=1"}
    assert unsupported.value.message == "Method `create` is not supported by this endpoint."


def test_authentication_round_trip(harness, live_server, user):
    storage = MemoryStorage()
    app = harness.app(live_server.url).configure(authentication_client(storage=storage))
    whoami = app.service("whoami")

    with pytest.raises(NotAuthenticated):
        harness.run(whoami.find())

    result = harness.run(app.authenticate(LOCAL))
    token = result["accessToken"]
    assert result["user"]["email"] == EMAIL
    assert result["authentication"]["strategy"] == "local"
    assert storage.get("feathers-jwt") == token
    assert harness.run(whoami.find()) == {"email": EMAIL, "authorization": f"Bearer {token}"}

    again = harness.run(app.re_authenticate(force=True))
    assert again["accessToken"] == token
    assert again["authentication"]["strategy"] == "jwt"

    logged_out = harness.run(app.logout())
    assert logged_out["accessToken"] == token
    assert storage.get("feathers-jwt") is None
    with pytest.raises(NotAuthenticated):
        harness.run(whoami.find())


def test_a_new_app_logs_in_with_a_stored_token(harness, live_server, user):
    storage = MemoryStorage()
    first = harness.app(live_server.url).configure(authentication_client(storage=storage))
    harness.run(first.authenticate(LOCAL))

    second = harness.app(live_server.url).configure(authentication_client(storage=storage))
    harness.run(second.re_authenticate())

    assert harness.run(second.service("whoami").find())["email"] == EMAIL


def test_failed_logins_and_bad_tokens(harness, live_server, user):
    storage = MemoryStorage()
    app = harness.app(live_server.url).configure(authentication_client(storage=storage))

    with pytest.raises(NotAuthenticated, match="Invalid login"):
        harness.run(app.authenticate({**LOCAL, "password": "wrong"}))

    storage.set("feathers-jwt", "not-a-token")
    with pytest.raises(NotAuthenticated) as caught:
        harness.run(app.re_authenticate())
    assert caught.value.data == {"name": "JsonWebTokenError"}
    assert storage.get("feathers-jwt") is None

"""
django-feathers' Python client against a real Feathers v5 server (@feathersjs/express,
@feathersjs/memory, @feathersjs/authentication-local: node/reference-server.js), on every
connection kind: requests, httpx, httpx async and aiohttp.
"""

from __future__ import annotations

import base64
import json
import urllib.request

import pytest

from django_services import errors
from django_services.client import MemoryStorage

pytestmark = pytest.mark.interop

STANDARD_METHODS = ["find", "get", "create", "update", "patch", "remove"]
ERROR_CODES = (400, 401, 402, 403, 404, 405, 406, 408, 409, 410, 411, 422, 429, 500, 501, 502, 503)
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
LOCAL = {"strategy": "local", "email": EMAIL, "password": PASSWORD}


@pytest.fixture
def feathers(feathers_server):
    """The base URL of the Feathers server, every table emptied."""
    request = urllib.request.Request(f"{feathers_server.url}/__reset", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 204
    return feathers_server.url


@pytest.fixture
def app(harness, feathers):
    return harness.app(feathers)


def names(records):
    return [record["name"] for record in records]


def assert_error(error, cls, code, class_name, message=None, data=None):
    assert isinstance(error, cls)
    assert error.name == cls.__name__
    assert error.code == code
    assert error.class_name == class_name
    if message is not None:
        assert error.message == message
    if data is not None:
        assert error.data == data


# Every method -------------------------------------------------------------------------------


def test_every_method_of_a_memory_service(harness, app):
    people = app.service("people")
    doug = harness.run(people.create({"name": "Doug", "age": 32}))
    assert doug == {"id": doug["id"], "name": "Doug", "age": 32, "created": False}
    assert harness.run(people.get(doug["id"])) == doug
    assert harness.run(people.get(doug["id"], query={"$select": ["name"]})) == {
        "id": doug["id"],
        "name": "Doug",
    }
    assert harness.run(people.find()) == [doug]
    replaced = harness.run(people.update(doug["id"], {"name": "Douglas"}))
    assert replaced == {"id": doug["id"], "name": "Douglas", "age": None, "created": False}
    patched = harness.run(people.patch(doug["id"], {"age": 33}))
    assert patched == {**replaced, "age": 33}
    assert harness.run(people.remove(doug["id"])) == patched
    assert harness.run(people.find()) == []


def test_multi_create_patch_and_remove(harness, app):
    people = app.service("people")
    created = harness.run(
        people.create([{"name": "A", "age": 1}, {"name": "B", "age": 2}, {"name": "C", "age": 30}])
    )
    assert names(created) == ["A", "B", "C"]
    patched = harness.run(people.patch(None, {"created": True}, query={"age": {"$lt": 10}}))
    assert sorted(names(patched)) == ["A", "B"]
    assert all(person["created"] is True for person in patched)
    removed = harness.run(people.remove(None, query={"created": True}))
    assert sorted(names(removed)) == ["A", "B"]
    assert names(harness.run(people.find())) == ["C"]


# The query language -------------------------------------------------------------------------


QUERIES = [
    ({"name": "Bob"}, ["Bob"]),
    ({"name": "Doug", "age": 32}, ["Doug"]),
    ({"created": True}, ["Alice", "Doug"]),
    ({"age": None}, ["Eve"]),
    ({"name": {"$in": ["Alice", "Eve"]}}, ["Alice", "Eve"]),
    ({"name": {"$nin": ["Alice", "Eve"]}}, ["Bob", "Doug"]),
    ({"age": {"$lt": 25}}, ["Alice"]),
    ({"age": {"$lte": 25}}, ["Alice", "Bob"]),
    ({"age": {"$gt": 25}}, ["Doug"]),
    ({"age": {"$gte": 25}}, ["Bob", "Doug"]),
    ({"name": {"$ne": "Bob"}}, ["Alice", "Doug", "Eve"]),
    ({"age": {"$gt": 18, "$lt": 30}}, ["Alice", "Bob"]),
    ({"$or": [{"name": "Alice"}, {"age": {"$gte": 30}}]}, ["Alice", "Doug"]),
    ({"$and": [{"$or": [{"name": "Bob"}, {"name": "Doug"}]}, {"created": True}]}, ["Doug"]),
    ({"$sort": {"created": -1, "name": -1}}, ["Doug", "Alice", "Eve", "Bob"]),
    ({"$skip": 1, "$limit": 2}, ["Bob", "Doug"]),
    ({"$limit": 0}, []),
]


@pytest.fixture
def four_people(harness, app):
    people = app.service("people")
    harness.run(
        people.create(
            [
                {"name": "Alice", "age": 19, "created": True},
                {"name": "Bob", "age": 25},
                {"name": "Doug", "age": 32, "created": True},
                {"name": "Eve", "age": None},
            ]
        )
    )
    return people


@pytest.mark.parametrize(("query", "expected"), QUERIES)
def test_the_query_is_encoded_as_feathers_reads_it(harness, four_people, query, expected):
    found = harness.run(four_people.find(query={"$sort": {"name": 1}, **query}))
    assert names(found) == expected


def test_select_keeps_the_fields_asked_for_and_the_id(harness, four_people):
    [bob] = harness.run(four_people.find(query={"name": "Bob", "$select": ["age"]}))
    assert bob == {"id": bob["id"], "age": 25}


def test_query_errors_keep_the_servers_message_and_data(harness, four_people):
    error = harness.raises(
        errors.BadRequest, lambda: four_people.find(query={"name": {"$regex": "B"}})
    )
    assert_error(
        error,
        errors.BadRequest,
        400,
        "bad-request",
        "Invalid query parameter $regex",
        {"$regex": "B"},
    )
    error = harness.raises(errors.BadRequest, lambda: four_people.find(query={"$populate": "x"}))
    assert_error(error, errors.BadRequest, 400, "bad-request", "Invalid filter value $populate")


# Pagination, nested paths, custom ids --------------------------------------------------------


def test_pages_of_a_paginated_service(harness, app):
    people = app.service("people-paginated")
    harness.run(people.create([{"name": f"p{index}", "age": index} for index in range(60)]))
    page = harness.run(people.find(query={"$sort": {"age": 1}}))
    assert list(page) == ["total", "limit", "skip", "data"]
    assert (page["total"], page["limit"], page["skip"]) == (60, 10, 0)
    assert [person["age"] for person in page["data"]] == list(range(10))
    page = harness.run(people.find(query={"$limit": 100, "$skip": 55, "$sort": {"age": 1}}))
    assert (page["limit"], page["skip"]) == (50, 55)
    assert [person["age"] for person in page["data"]] == [55, 56, 57, 58, 59]
    page = harness.run(people.find(query={"$limit": 0, "age": {"$lt": 20}}))
    assert page == {"total": 20, "limit": 0, "skip": 0, "data": []}


def test_a_nested_service_path_without_multi(harness, app):
    messages = app.service("api/v1/messages")
    first = harness.run(messages.create({"text": "hello", "userId": 7}))
    assert first == {"id": first["id"], "text": "hello", "userId": 7, "read": False}
    harness.run(messages.create({"text": "other", "userId": 8, "read": True}))
    page = harness.run(messages.find(query={"userId": 7, "read": False}))
    assert page == {"total": 1, "limit": 10, "skip": 0, "data": [first]}
    refusals = [
        (lambda: messages.create([{"text": "a", "userId": 1}]), "Can not create multiple entries"),
        (lambda: messages.patch(None, {"read": True}), "Can not patch multiple entries"),
        (lambda: messages.remove(None), "Can not remove multiple entries"),
    ]
    for call, message in refusals:
        error = harness.raises(errors.MethodNotAllowed, call)
        assert_error(error, errors.MethodNotAllowed, 405, "method-not-allowed", message)


def test_a_custom_id_field(harness, app):
    people = app.service("people-customid")
    created = harness.run(people.create({"customid": "doug-1", "name": "Doug", "age": 32}))
    assert created == {"customid": "doug-1", "name": "Doug", "age": 32, "created": False}
    assert harness.run(people.get("doug-1")) == created
    assert harness.run(people.patch("doug-1", {"age": 33}))["age"] == 33
    assert harness.run(people.remove("doug-1"))["customid"] == "doug-1"
    harness.raises(errors.NotFound, lambda: people.get("doug-1"))


# Custom methods and route placeholders --------------------------------------------------------


def test_a_custom_method(harness, app):
    app.use(
        "todos", app.connection.service("todos"), methods=[*STANDARD_METHODS, "markAllComplete"]
    )
    todos = app.service("todos")
    for todo in ({"text": "a"}, {"text": "b", "complete": True}, {"text": "c"}):
        harness.run(todos.create(todo))
    assert harness.run(todos.markAllComplete({})) == {"updated": 2}
    assert harness.run(todos.find(query={"complete": False})) == []
    assert harness.run(todos.markAllComplete({})) == {"updated": 0}


def test_a_custom_method_the_server_does_not_expose_is_405(harness, app):
    app.use("todos", app.connection.service("todos"), methods=["find", "archiveAll"])
    error = harness.raises(errors.MethodNotAllowed, lambda: app.service("todos").archiveAll({}))
    assert_error(
        error,
        errors.MethodNotAllowed,
        405,
        "method-not-allowed",
        "Method `archiveAll` is not supported by this endpoint.",
    )


def test_route_placeholders(harness, app):
    notes = app.service("users/:userId/notes")
    mine = harness.run(notes.create({"text": "mine", "userId": 99}, route={"userId": 1}))
    assert mine == {"id": mine["id"], "text": "mine", "userId": 1}
    theirs = harness.run(notes.create({"text": "theirs"}, route={"userId": "2"}))
    assert harness.run(notes.find(route={"userId": 1})) == [mine]
    assert harness.run(notes.find(route={"userId": 2})) == [theirs]
    assert harness.run(notes.get(mine["id"], route={"userId": 1})) == mine
    for call in (
        lambda: notes.get(mine["id"], route={"userId": 2}),
        lambda: notes.patch(mine["id"], {"text": "x"}, route={"userId": 2}),
        lambda: notes.remove(mine["id"], route={"userId": 2}),
    ):
        harness.raises(errors.NotFound, call)
    edited = harness.run(notes.patch(mine["id"], {"text": "edited"}, route={"userId": 1}))
    assert edited == {**mine, "text": "edited"}


# Errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_feathers_error_class(harness, app, code):
    cls = errors.errors[code]
    error = harness.raises(cls, lambda: app.service("errors").get(code))
    assert_error(error, cls, code, cls.class_name, f"boom {code}", {"reason": "test"})
    assert error.response is not None


def test_a_plain_exception_is_a_general_error(harness, app):
    error = harness.raises(errors.GeneralError, lambda: app.service("errors").get("unexpected"))
    # Feathers' Express error handler exposes the message of any exception.
    assert_error(error, errors.GeneralError, 500, "general-error", "boom unexpected")


def test_missing_records_and_paths(harness, app):
    error = harness.raises(errors.NotFound, lambda: app.service("people").get(999999))
    assert_error(error, errors.NotFound, 404, "not-found", "No record found for id '999999'")
    error = harness.raises(
        errors.NotFound, lambda: app.service("no/such/service").find(query={"a": 1})
    )
    assert_error(
        error, errors.NotFound, 404, "not-found", "Page not found", {"url": "/no/such/service?a=1"}
    )


# Authentication ------------------------------------------------------------------------------


@pytest.fixture
def user(harness, app):
    return harness.run(app.service("users").create({"email": EMAIL, "password": PASSWORD}))


def claims(token):
    header, payload = (
        json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        for part in token.split(".")[:2]
    )
    return header, payload


def test_local_login_and_protected_services(harness, feathers, user):
    storage = MemoryStorage()
    app = harness.app(feathers, storage=storage)
    assert user == {"email": EMAIL, "id": user["id"]}
    error = harness.raises(errors.NotAuthenticated, lambda: app.service("secrets").find())
    assert_error(error, errors.NotAuthenticated, 401, "not-authenticated", "Not authenticated")

    result = harness.run(app.authenticate(LOCAL))
    assert list(result) == ["accessToken", "authentication", "user"]
    assert result["user"] == user
    assert result["authentication"]["strategy"] == "local"
    header, payload = claims(result["accessToken"])
    assert header == {"alg": "HS256", "typ": "access"}
    assert result["authentication"]["payload"] == payload
    assert payload["sub"] == str(user["id"])
    assert (payload["aud"], payload["iss"]) == ("https://yourdomain.com", "feathers")
    assert storage.get("feathers-jwt") == result["accessToken"]

    assert harness.run(app.service("secrets").find()) == [{"id": 1, "secret": "42"}]
    assert harness.run(app.service("users").find()) == [user]
    assert harness.run(app.service("users").get(user["id"])) == user


def test_re_authenticate_and_logout(harness, feathers, user):
    storage = MemoryStorage()
    app = harness.app(feathers, storage=storage)
    login = harness.run(app.authenticate(LOCAL))
    assert harness.run(app.re_authenticate()) is login  # no request without force
    again = harness.run(app.re_authenticate(force=True))
    assert again["accessToken"] == login["accessToken"]
    assert again["authentication"]["strategy"] == "jwt"
    assert again["authentication"]["accessToken"] == login["accessToken"]

    other = harness.app(feathers, storage=storage)
    assert harness.run(other.re_authenticate())["user"] == user
    assert harness.run(other.service("secrets").find()) == [{"id": 1, "secret": "42"}]

    logout = harness.run(app.logout())
    assert logout["accessToken"] == login["accessToken"]
    assert storage.get("feathers-jwt") is None
    harness.raises(errors.NotAuthenticated, lambda: app.service("secrets").find())
    assert harness.run(app.logout()) is None


def test_failed_logins(harness, feathers, user):
    storage = MemoryStorage()
    app = harness.app(feathers, storage=storage)
    for data in ({**LOCAL, "password": "wrong"}, {**LOCAL, "email": "nobody@example.com"}):
        error = harness.raises(errors.NotAuthenticated, lambda data=data: app.authenticate(data))
        assert_error(error, errors.NotAuthenticated, 401, "not-authenticated", "Invalid login")
    assert storage.get("feathers-jwt") is None
    error = harness.raises(errors.NotAuthenticated, lambda: app.re_authenticate())
    assert error.message == "No accessToken found in storage"


def test_a_stored_token_that_does_not_verify_is_removed(harness, feathers, user):
    storage = MemoryStorage()
    token = harness.run(harness.app(feathers, storage=storage).authenticate(LOCAL))["accessToken"]
    header, payload, _ = token.split(".")
    storage.set("feathers-jwt", f"{header}.{payload}.{'A' * 43}")
    error = harness.raises(
        errors.NotAuthenticated, lambda: harness.app(feathers, storage=storage).re_authenticate()
    )
    assert error.data["name"] == "JsonWebTokenError"
    assert storage.get("feathers-jwt") is None

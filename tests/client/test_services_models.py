"""
The client against model services of the project's own server (live_server), with each of the
four connection kinds: every method, the query language, multi writes, custom methods, route
params and errors, checked against the database.
"""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest

from django_services.errors import BadRequest, MethodNotAllowed, NotFound
from tests.testapp.models import Note, Person, PersonCustomId, Sample, Todo

pytestmark = pytest.mark.usefixtures("live_services", "transactional_db")


@pytest.fixture
def app(harness, live_server):
    app = harness.app(live_server.url)
    methods = ["find", "get", "create", "update", "patch", "remove", "markAllComplete"]
    app.use("todos", app.connection.service("todos"), methods=methods)
    return app


@pytest.fixture
def people():
    names = [("Alice", 30), ("Bob", 25), ("Carol", 35), ("Dave", None), ("Eve", 25)]
    return {name: Person.objects.create(name=name, age=age).pk for name, age in names}


def test_every_method_on_a_model(harness, app):
    todos = app.service("todos")
    run = harness.run

    created = run(todos.create({"text": "write tests"}))
    assert created == {"id": created["id"], "text": "write tests", "complete": False}
    pk = created["id"]
    assert run(todos.get(pk)) == created
    assert run(todos.find()) == [created]
    assert run(todos.update(pk, {"text": "replaced"})) == {
        "id": pk,
        "text": "replaced",
        "complete": False,
    }
    assert run(todos.patch(pk, {"complete": True}))["complete"] is True
    assert Todo.objects.get(pk=pk).complete is True
    assert run(todos.remove(pk)) == {"id": pk, "text": "replaced", "complete": True}
    assert not Todo.objects.exists()

    with pytest.raises(NotFound) as caught:
        run(todos.get(pk))
    assert caught.value.message == f"No record found for id '{pk}'"


def test_multi_writes(harness, app):
    todos = app.service("todos")

    created = harness.run(todos.create([{"text": "a"}, {"text": "b"}, {"text": "c"}]))
    patched = harness.run(
        todos.patch(None, {"complete": True}, query={"text": {"$in": ["a", "b"]}})
    )
    removed = harness.run(todos.remove(None, query={"complete": True}))

    assert [todo["text"] for todo in created] == ["a", "b", "c"]
    assert sorted(todo["text"] for todo in patched) == ["a", "b"]
    assert all(todo["complete"] for todo in patched)
    assert sorted(todo["text"] for todo in removed) == ["a", "b"]
    assert list(Todo.objects.values_list("text", flat=True)) == ["c"]


def test_custom_method_on_a_model(harness, app):
    Todo.objects.bulk_create([Todo(text="a"), Todo(text="b"), Todo(text="c", complete=True)])

    result = harness.run(app.service("todos").markAllComplete({}))

    assert result == {"updated": 2}
    assert not Todo.objects.filter(complete=False).exists()


def test_validation_errors(harness, app):
    with pytest.raises(BadRequest) as caught:
        harness.run(app.service("todos").create({"text": "boom"}))

    assert caught.value.errors == {"text": ["Todos may not explode."]}
    assert not Todo.objects.exists()


def test_id_with_query_that_does_not_match_writes_nothing(harness, app):
    pk = Todo.objects.create(text="keep").pk

    with pytest.raises(NotFound):
        harness.run(app.service("todos").patch(pk, {"text": "x"}, query={"complete": True}))

    assert Todo.objects.get(pk=pk).text == "keep"


def names(result):
    return [person["name"] for person in result["data"]]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"$sort": {"name": 1}}, ["Alice", "Bob", "Carol"]),
        ({"$sort": {"age": -1, "name": 1}, "$limit": 2}, ["Carol", "Alice"]),
        ({"$sort": {"name": 1}, "$skip": 3}, ["Dave", "Eve"]),
        ({"age": 25, "$sort": {"name": -1}}, ["Eve", "Bob"]),
        ({"age": {"$in": [30, 35]}, "$sort": {"name": 1}}, ["Alice", "Carol"]),
        ({"age": {"$nin": [25]}, "$sort": {"name": 1}}, ["Alice", "Carol", "Dave"]),
        ({"age": {"$gt": 25, "$lte": 35}, "$sort": {"age": 1}}, ["Alice", "Carol"]),
        ({"age": {"$lt": 30}, "name": {"$ne": "Eve"}}, ["Bob"]),
        ({"age": None}, ["Dave"]),
        ({"$or": [{"name": "Alice"}, {"age": 35}], "$sort": {"name": 1}}, ["Alice", "Carol"]),
        ({"$and": [{"$or": [{"age": 25}, {"age": 30}]}, {"name": {"$ne": "Bob"}}],
          "$sort": {"name": 1}}, ["Alice", "Eve"]),
    ],
)  # fmt: skip
def test_queries(harness, app, people, query, expected):
    page = harness.run(app.service("people").find(query=query))

    assert names(page) == expected


def test_pagination_and_select(harness, app, people):
    page = harness.run(
        app.service("people").find(
            query={"$limit": 100, "$skip": 1, "$sort": {"name": 1}, "$select": ["name"]}
        )
    )
    counted = harness.run(app.service("people").find(query={"$limit": 0}))

    assert list(page) == ["total", "limit", "skip", "data"]
    assert (page["total"], page["limit"], page["skip"]) == (5, 3, 1)
    assert page["data"] == [
        {"id": people["Bob"], "name": "Bob"},
        {"id": people["Carol"], "name": "Carol"},
        {"id": people["Dave"], "name": "Dave"},
    ]
    assert counted == {"total": 5, "limit": 0, "skip": 0, "data": []}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"$foo": 1}, "Invalid filter value $foo"),
        ({"age": {"$regex": "x"}}, "Invalid query parameter $regex"),
        ({"nope": 1}, "nope"),
        ({"age": "old"}, "old"),
    ],
)
def test_invalid_queries_are_bad_request(harness, app, people, query, message):
    with pytest.raises(BadRequest, match=message.replace("$", r"\$")):
        harness.run(app.service("people").find(query=query))


def test_python_values_in_queries(harness, app):
    moment = datetime.datetime(2024, 5, 1, 12, 30, 15, 250000, tzinfo=datetime.timezone.utc)
    uid = uuid.UUID(int=7)
    match = Sample.objects.create(
        char="match",
        amount=decimal.Decimal("9.50"),
        flag=True,
        maybe=None,
        day=datetime.date(2024, 5, 1),
        moment=moment,
        uid=uid,
    )
    Sample.objects.create(char="other", flag=False, maybe=True, moment=moment, uid=uuid.uuid4())
    query = {
        "amount": {"$gte": decimal.Decimal("9.5")},
        "flag": True,
        "maybe": None,
        "day": datetime.date(2024, 5, 1),
        "moment": {"$lte": moment, "$gt": moment - datetime.timedelta(milliseconds=1)},
        "uid": {"$in": [uid]},
    }

    found = harness.run(app.service("samples").find(query=query))

    assert [sample["id"] for sample in found] == [match.pk]


@pytest.mark.parametrize("customid", ["a b", "é☃", "x?y#z", "50%", "a+b=c&d"])
def test_client_chosen_string_ids(harness, app, customid):
    tagged = app.service("tagged")

    created = harness.run(tagged.create({"customid": customid, "name": "N"}))
    patched = harness.run(tagged.patch(customid, {"age": 3}))
    got = harness.run(tagged.get(customid))
    removed = harness.run(tagged.remove(customid))

    assert created["customid"] == got["customid"] == removed["customid"] == customid
    assert patched["age"] == got["age"] == 3
    assert not PersonCustomId.objects.exists()


def test_route_params_scope_the_records(harness, app):
    notes = app.service("users/:userId/notes")
    Note.objects.create(text="someone else's", user_id=2)

    created = harness.run(notes.create({"text": "mine"}, route={"userId": 1}))
    mine = harness.run(notes.find(route={"userId": 1}))

    assert created["user_id"] == 1
    assert [note["text"] for note in mine] == ["mine"]
    with pytest.raises(NotFound):
        harness.run(notes.get(created["id"], route={"userId": 2}))


def test_multi_not_allowed(harness, live_server):
    app = harness.app(live_server.url)

    with pytest.raises(MethodNotAllowed, match="Can not patch multiple entries"):
        harness.run(app.service("people").patch(None, {"age": 1}))

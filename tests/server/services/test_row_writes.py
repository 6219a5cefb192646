"""
What a patch writes: the columns it was sent and those its save hooks change, nothing else,
so a column another call changed meanwhile keeps that change. What a create's one `INSERT`
writes, and refuses, as DRF's `ModelSerializer.create` does.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers

from django_services.server import ModelService
from django_services.server.services.row_writes import insert_one_row, inserts_one_row
from tests.server.http import body, send
from tests.testapp.models import Person, Sample, Todo

pytestmark = pytest.mark.django_db

HERE = "tests.server.services.test_row_writes."


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]


class TodoService(ModelService):
    queryset = Todo.objects.order_by("pk")
    serializer_class = TodoSerializer
    multi = True


class MeanwhileService(TodoService):
    """Another writer completes the todo between the read and the save of each patch."""

    def perform_update(self, serializer):
        Todo.objects.filter(pk=serializer.instance.pk).update(complete=True)
        super().perform_update(serializer)


class StampingService(TodoService):
    """A hook that adds a value the caller did not send."""

    def perform_update(self, serializer):
        serializer.save(complete=True)


class ShoutingSerializer(TodoSerializer):
    def update(self, instance, validated_data):
        instance.text = validated_data.pop("text", instance.text).upper()
        instance.complete = True
        instance.save()
        return instance


class ShoutingService(TodoService):
    serializer_class = ShoutingSerializer


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]


class PersonService(ModelService):
    queryset = Person.objects.order_by("pk")
    serializer_class = PersonSerializer


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "todos": HERE + "TodoService",
            "meanwhile": HERE + "MeanwhileService",
            "stamping": HERE + "StampingService",
            "shouting": HERE + "ShoutingService",
            "people": HERE + "PersonService",
        }
    )


def updates(queries):
    return [query["sql"] for query in queries if query["sql"].startswith("UPDATE")]


def test_a_patch_updates_only_the_columns_it_was_sent(api):
    todo = Todo.objects.create(text="write", complete=False)
    with CaptureQueriesContext(connection) as queries:
        response = send(api, "PATCH", f"/todos/{todo.pk}", {"text": "written"})
    assert body(response) == {"id": todo.pk, "text": "written", "complete": False}
    [update] = updates(queries)
    assert '"text"' in update
    assert '"complete"' not in update


def test_a_patch_with_select_updates_only_the_columns_it_was_sent(api):
    todo = Todo.objects.create(text="write", complete=False)
    with CaptureQueriesContext(connection) as queries:
        response = send(api, "PATCH", f"/todos/{todo.pk}?$select[]=text", {"complete": True})
    assert body(response) == {"id": todo.pk, "text": "write"}
    [update] = updates(queries)
    assert '"complete"' in update
    assert '"text"' not in update
    todo.refresh_from_db()
    assert todo.complete is True


def test_a_column_changed_meanwhile_keeps_its_change(api):
    todo = Todo.objects.create(text="write", complete=False)
    response = send(api, "PATCH", f"/meanwhile/{todo.pk}", {"text": "written"})
    assert response.status_code == 200
    todo.refresh_from_db()
    assert (todo.text, todo.complete) == ("written", True)


def test_a_multi_patch_keeps_columns_changed_meanwhile(api):
    for n in range(3):
        Todo.objects.create(text=f"todo {n}")
    response = send(api, "PATCH", "/meanwhile?id[$gt]=0", {"text": "done"})
    assert response.status_code == 200
    assert [(t.text, t.complete) for t in Todo.objects.order_by("pk")] == [("done", True)] * 3


@pytest.mark.parametrize("path", ["stamping", "shouting"])
def test_values_the_save_hooks_set_are_written(api, path):
    todo = Todo.objects.create(text="write", complete=False)
    response = send(api, "PATCH", f"/{path}/{todo.pk}", {"text": "written"})
    assert response.status_code == 200
    todo.refresh_from_db()
    assert todo.complete is True
    assert todo.text in ("written", "WRITTEN")


def test_a_patch_that_changes_nothing_writes_nothing(api):
    todo = Todo.objects.create(text="write", complete=False)
    with CaptureQueriesContext(connection) as queries:
        response = send(api, "PATCH", f"/todos/{todo.pk}", {})
    assert body(response) == {"id": todo.pk, "text": "write", "complete": False}
    assert updates(queries) == []


def test_an_update_writes_every_field_and_keeps_the_others(api):
    person = Person.objects.create(name="Ada", age=36, created=True)
    response = send(api, "PUT", f"/people/{person.pk}", {"name": "Bob"})
    assert body(response) == {"id": person.pk, "name": "Bob", "age": None, "created": False}


# A create's one INSERT -------------------------------------------------------------------


class OwnerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["name", "age"]


class NestedOwnerSampleSerializer(serializers.ModelSerializer):
    owner = OwnerSerializer()

    class Meta:
        model = Sample
        fields = ["id", "char", "owner"]


class DottedSourceSerializer(serializers.ModelSerializer):
    owner_name = serializers.CharField(source="owner.name")

    class Meta:
        model = Sample
        fields = ["id", "char", "owner_name"]


class NicknameSerializer(PersonSerializer):
    nickname = serializers.CharField()

    class Meta(PersonSerializer.Meta):
        fields = [*PersonSerializer.Meta.fields, "nickname"]


def valid(serializer):
    assert serializer.is_valid(), serializer.errors
    assert inserts_one_row(serializer)
    return serializer


def test_one_insert_saves_the_record_as_drf_s_create_does():
    serializer = valid(PersonSerializer(data={"name": "Ada", "age": 36}))

    with CaptureQueriesContext(connection) as queries:
        insert_one_row(serializer)

    person = serializer.instance
    assert [query["sql"].split()[0] for query in queries] == ["INSERT"]
    assert Person.objects.get(pk=person.pk).name == "Ada"
    assert serializer.data == PersonSerializer(Person.objects.get(pk=person.pk)).data


@pytest.mark.parametrize(
    ("serializer_class", "data", "refusal"),
    [
        (
            NestedOwnerSampleSerializer,
            {"char": "s", "owner": {"name": "Ada", "age": 36}},
            "does not support writable nested fields",
        ),
        (
            DottedSourceSerializer,
            {"char": "s", "owner_name": "Ada"},
            "does not support writable dotted-source fields",
        ),
    ],
)
def test_nested_and_dotted_writes_are_refused_as_drf_refuses_them(serializer_class, data, refusal):
    serializer = valid(serializer_class(data=data))

    with pytest.raises(AssertionError, match=refusal):
        insert_one_row(serializer)
    assert not Sample.objects.exists()


def test_a_writable_field_the_model_does_not_take_is_named_as_drf_names_it():
    serializer = valid(NicknameSerializer(data={"name": "Ada", "age": 36, "nickname": "A"}))

    with pytest.raises(
        TypeError, match=r"Got a `TypeError` when calling `Person.objects.create\(\)`"
    ):
        insert_one_row(serializer)
    assert not Person.objects.exists()

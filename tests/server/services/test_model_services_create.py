"""
A create is all or nothing. A single record whose save is one `INSERT` is sent as that statement
alone, atomic by itself: no transaction around it, so SQLite's write lock is held for one
statement, as DRF's `ModelViewSet` holds it. A create that may write more (a `perform_create`
override, a save signal receiver, many-to-many values, several records) runs in one
transaction, and a failure anywhere in it writes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.models.signals import post_save
from rest_framework import serializers

from django_services.errors import Conflict
from django_services.server import ModelService
from tests.server.http import body, send
from tests.server.model_services import TodoService
from tests.testapp.models import Todo

# The statements are watched as a real request sends them, outside the test's transaction.
pytestmark = pytest.mark.django_db(transaction=True)

HERE = "tests.server.services.test_model_services_create."


class RefusingTodoService(TodoService):
    """Saves the todo, then refuses it: the record must not stay."""

    def perform_create(self, serializer):
        serializer.save()
        if serializer.instance.text == "refused":
            raise Conflict("Refused after saving")


class GroupSerializer(serializers.ModelSerializer):
    class Meta:
        model = Group
        fields = ["id", "name", "permissions"]


class GroupService(ModelService):
    authentication_classes = []
    queryset = Group.objects.order_by("pk")
    serializer_class = GroupSerializer


def created(response):
    assert response.status_code == 201, response.content
    return body(response)


@contextlib.contextmanager
def statements() -> Iterator[list[tuple[str, bool]]]:
    """Each statement the block sends: its first word, and whether a transaction was open."""
    sent: list[tuple[str, bool]] = []

    def record(execute, sql, params, many, context):
        sent.append((sql.split()[0].upper(), context["connection"].in_atomic_block))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield sent


@pytest.fixture
def services(serve):
    serve(
        {
            "todos": "tests.server.model_services.TodoService",
            "refusing": HERE + "RefusingTodoService",
            "groups": HERE + "GroupService",
        }
    )


def test_a_plain_create_is_one_insert_without_a_transaction(api, services):
    with statements() as sent:
        todo = created(send(api, "POST", "/todos", {"text": "one"}))

    assert sent == [("INSERT", False)]
    assert Todo.objects.get(pk=todo["id"]).text == "one"


def test_a_create_with_a_save_receiver_runs_in_a_transaction_and_fails_whole(api, services):
    def refuse(sender, instance, created, **kwargs):
        if instance.text == "refused":
            raise Conflict("Refused by a receiver")

    post_save.connect(refuse, sender=Todo)
    try:
        with statements() as sent:
            created(send(api, "POST", "/todos", {"text": "kept"}))
        refused = send(api, "POST", "/todos", {"text": "refused"})
    finally:
        post_save.disconnect(refuse, sender=Todo)

    assert ("INSERT", True) in sent
    assert refused.status_code == 409
    assert list(Todo.objects.values_list("text", flat=True)) == ["kept"]


def test_a_perform_create_override_runs_in_a_transaction_and_fails_whole(api, services):
    refused = send(api, "POST", "/refusing", {"text": "refused"})

    assert refused.status_code == 409
    assert refused.json()["message"] == "Refused after saving"
    assert not Todo.objects.exists()


def test_many_to_many_values_are_written_in_the_insert_s_transaction(api, services):
    permissions = list(Permission.objects.order_by("pk").values_list("pk", flat=True)[:2])

    with statements() as sent:
        group = created(
            send(api, "POST", "/groups", {"name": "editors", "permissions": permissions})
        )

    inserts = [in_transaction for word, in_transaction in sent if word == "INSERT"]
    assert inserts == [True, True]  # the group, then its permissions in one statement
    assert group["permissions"] == permissions
    assert list(Group.objects.get().permissions.values_list("pk", flat=True)) == permissions


def test_a_create_that_sends_no_many_to_many_values_is_one_insert(api, services):
    with statements() as sent:
        created(send(api, "POST", "/groups", {"name": "readers"}))

    # The name's unique validator reads first, outside any transaction too.
    assert [(word, open_) for word, open_ in sent if word != "SELECT"] == [("INSERT", False)]

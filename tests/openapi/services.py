"""Services over the test models, with every option the schema describes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated

from django_services.server import ModelService, Params, Service, service_method
from tests.testapp.models import Note, Person, Sample, Todo

SERVICES = {
    "samples": "tests.openapi.services.SampleService",
    "users/:userId/todos": "tests.openapi.services.TodoService",
    "notes": "tests.openapi.services.NoteService",
    "echo": "tests.openapi.services.EchoService",
    "people": "tests.openapi.services.PersonService",
}
#: The settings of the tests: these services, and the authentication service.
DJANGO_SERVICES = {
    "SERVICES": SERVICES,
    "AUTHENTICATION": {"SECRET": "openapi-tests-secret-that-is-long-enough-for-hs256-keys"},
}


class SampleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Sample
        fields = ["id", "char", "text", "integer", "flag", "moment", "uid", "secret", "owner"]


class SampleService(ModelService):
    queryset = Sample.objects.all()
    serializer_class = SampleSerializer
    private_fields = ["secret"]
    sort_fields = ["integer", "moment"]
    operators = ["$like", "$ilike"]
    paginate = {"default": 5, "max": 20}
    multi = ["patch", "remove"]
    etag_field = "integer"
    last_modified_field = "moment"


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]


class TodoService(ModelService):
    queryset = Todo.objects.all()
    serializer_class = TodoSerializer
    permission_classes = [IsAuthenticated]
    multi = ["create"]
    require_preconditions = True
    paginate = False

    def get_queryset(self) -> Any:
        # Reads the route of the call, as services nested under a placeholder do.
        if not self.params.route["userId"].isdigit():
            raise ValueError("userId must be a number")
        return super().get_queryset()

    @service_method(name="markAllComplete")
    def mark_all_complete(self, data: dict[str, bool], params: Params) -> dict[str, int]:
        """
        Complete every todo the query matches; answer how many changed.

        Not part of the description: the first paragraph only.
        """
        return {"updated": self.get_matching_queryset(params).update(complete=True)}

    @service_method
    def archive(self, data: Any, params: Params) -> None:
        return None


class NoteSerializer(serializers.ModelSerializer):
    class Meta:
        model = Note
        fields = ["id", "text", "user_id"]


class NoteService(ModelService):
    queryset = Note.objects.all()
    serializer_class = NoteSerializer
    methods = ["find", "get"]
    query_fields = ["text"]
    paginate = False


class EchoService(Service):
    def find(self, params: Params) -> list[dict[str, Any]]:
        return [dict(params.query)]

    def get(self, id: str, params: Params) -> dict[str, Any]:
        return {"id": id}


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age"]


class PersonService(ModelService):
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    # Pages without a default size: a find without `$limit` answers every record.
    paginate: Any = {}
    methods = ["find"]

"""Model services used by the server tests, wired per test through `DJANGO_SERVICES`."""

from __future__ import annotations

import re

from rest_framework import permissions, serializers

from django_services.errors import BadRequest, Conflict
from django_services.server import ModelService, service_method
from tests.testapp.models import Message, Note, Person, PersonCustomId, Sample, Todo


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]


class PersonCustomIdSerializer(serializers.ModelSerializer):
    class Meta:
        model = PersonCustomId
        fields = ["customid", "name", "age", "created"]


class MessageSerializer(serializers.ModelSerializer):
    userId = serializers.IntegerField(source="user_id")

    class Meta:
        model = Message
        fields = ["id", "text", "userId", "read"]


class SampleSerializer(serializers.ModelSerializer):
    ownerName = serializers.CharField(source="owner.name", read_only=True)
    shout = serializers.SerializerMethodField()

    class Meta:
        model = Sample
        fields = [
            "id", "char", "text", "email", "integer", "big", "small", "number", "amount",
            "flag", "maybe", "day", "moment", "clock", "uid", "secret", "owner", "ownerName",
            "shout",
        ]  # fmt: skip

    def get_shout(self, sample):
        return sample.char.upper()


class NoteSerializer(serializers.ModelSerializer):
    class Meta:
        model = Note
        fields = ["id", "text", "user_id"]
        read_only_fields = ["user_id"]


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]

    def validate_text(self, value):
        if value == "boom":
            raise serializers.ValidationError("Todos may not explode.")
        return value


class PersonService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer


class PersonCustomIdService(ModelService):
    authentication_classes = []
    queryset = PersonCustomId.objects.all()
    serializer_class = PersonCustomIdSerializer
    id_field = "customid"


class MessageService(ModelService):
    authentication_classes = []
    queryset = Message.objects.all()
    serializer_class = MessageSerializer

    @service_method
    def mark_all_read(self, data, params):
        if not isinstance(data, dict) or not isinstance(data.get("userId"), int):
            raise BadRequest("mark_all_read needs an integer userId")
        count = self.get_queryset().filter(user_id=data["userId"]).update(read=True)
        return {"updated": count}

    @service_method(name="markMatchingRead")
    def mark_matching_read(self, data, params):
        return {"updated": self.get_matching_queryset(params).update(read=True)}


class SampleService(ModelService):
    authentication_classes = []
    queryset = Sample.objects.select_related("owner")
    serializer_class = SampleSerializer
    private_fields = ["secret"]
    operators = ["$like", "$notlike", "$ilike"]


class NoteService(ModelService):
    """Served at `users/:userId/notes`: the notes of one user."""

    authentication_classes = []
    queryset = Note.objects.all()
    serializer_class = NoteSerializer

    def get_queryset(self):
        return super().get_queryset().filter(user_id=self.user_id())

    def perform_create(self, serializer):
        serializer.save(user_id=self.user_id())

    def user_id(self):
        user_id = self.params.route.get("userId", "")
        if not re.fullmatch(r"[0-9]{1,9}", user_id):
            raise BadRequest(f"Invalid userId '{user_id}'")
        return int(user_id)


class TodoService(ModelService):
    """A "frozen" todo fails when written, after the records before it were written."""

    authentication_classes = []
    queryset = Todo.objects.order_by("pk")
    serializer_class = TodoSerializer

    def perform_update(self, serializer):
        if serializer.instance.text == "frozen":
            raise Conflict("Frozen todos cannot change")
        super().perform_update(serializer)

    def perform_destroy(self, instance):
        if instance.text == "frozen":
            raise Conflict("Frozen todos cannot change")
        super().perform_destroy(instance)


class OwnTodosOnly(permissions.BasePermission):
    """Object permission: only todos whose text starts with "mine"."""

    def has_object_permission(self, request, view, obj):
        return obj.text.startswith("mine")


class GuardedTodoService(TodoService):
    permission_classes = [OwnTodosOnly]

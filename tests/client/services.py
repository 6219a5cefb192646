"""Services the client tests call on the project's own server (Django's live_server)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated

from django_services import errors
from django_services.server import ModelService, Service, service_method
from tests.testapp.models import Note, Person, PersonCustomId, Sample, Todo

#: The request headers echoed back (lower case), to see what the client sent.
ECHOED_HEADERS = ("accept", "content-type", "x-service-method", "x-api-version", "authorization")


def echo(method, params, **extra):
    return {
        "method": method,
        **extra,
        "query": params.query,
        "route": params.route,
        "headers": {name: params.headers.get(name) for name in ECHOED_HEADERS},
    }


class EchoService(Service):
    """Every standard method and one custom method, each answering what it received."""

    authentication_classes = []

    def find(self, params):
        return echo("find", params)

    def get(self, id, params):
        return echo("get", params, id=id)

    def create(self, data, params):
        return echo("create", params, data=data)

    def update(self, id, data, params):
        return echo("update", params, id=id, data=data)

    def patch(self, id, data, params):
        return echo("patch", params, id=id, data=data)

    def remove(self, id, params):
        return echo("remove", params, id=id)

    @service_method
    def shout(self, data, params):
        return echo("shout", params, data={key: value.upper() for key, value in data.items()})


class ReadOnlyService(Service):
    """Only find: every other method answers 405."""

    authentication_classes = []

    def find(self, params):
        return []


class NothingService(Service):
    """Methods that return None: 204 No Content."""

    authentication_classes = []

    def remove(self, id, params):
        return None

    @service_method
    def ping(self, data, params):
        return None


#: What `FailingService.get(<key>)` raises.
FAILURES = {
    "bad-request": errors.BadRequest(
        "Invalid data", {"extra": 1}, errors={"email": ["Enter a valid email address."]}
    ),
    "conflict": errors.Conflict("Already there", {"field": "name"}),
    "payment": errors.PaymentError("Pay first"),
    "gone": errors.Gone("Long gone"),
    "unprocessable": errors.Unprocessable("Can not do", [1, 2]),
    "teapot-like": errors.NotImplemented("Not yet"),
    "python": ZeroDivisionError("division by zero"),
}


class FailingService(Service):
    """`get(<key>)` raises `FAILURES[<key>]`."""

    authentication_classes = []

    def get(self, id, params):
        raise FAILURES[id]


class WhoAmIService(Service):
    """Needs an authenticated user (JWT or session, the defaults); answers who it is."""

    permission_classes = [IsAuthenticated]

    def find(self, params):
        return {"email": params.user.email, "authorization": params.headers.get("authorization")}


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]

    def validate_text(self, value):
        if value == "boom":
            raise serializers.ValidationError("Todos may not explode.")
        return value


class TodoService(ModelService):
    """Todos as a plain list (no pagination), multi writes allowed, one custom method."""

    authentication_classes = []
    queryset = Todo.objects.all()
    serializer_class = TodoSerializer
    paginate = False
    multi = True

    @service_method
    def markAllComplete(self, data, params):
        count = self.get_queryset().filter(complete=False).update(complete=True)
        return {"updated": count}


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]


class PersonService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    paginate = {"default": 10, "max": 3}


class TaggedPersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = PersonCustomId
        fields = ["customid", "name", "age"]


class TaggedPersonService(ModelService):
    """Records found by a string id chosen by the client."""

    authentication_classes = []
    queryset = PersonCustomId.objects.all()
    serializer_class = TaggedPersonSerializer
    id_field = "customid"
    paginate = False


class SampleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Sample
        fields = ["id", "char", "amount", "flag", "maybe", "day", "moment", "uid"]


class SampleService(ModelService):
    authentication_classes = []
    queryset = Sample.objects.all()
    serializer_class = SampleSerializer
    paginate = False


class NoteSerializer(serializers.ModelSerializer):
    class Meta:
        model = Note
        fields = ["id", "text", "user_id"]
        read_only_fields = ["user_id"]


class UserNoteService(ModelService):
    """Served at `users/:userId/notes`: the notes of the user in the path."""

    authentication_classes = []
    queryset = Note.objects.all()
    serializer_class = NoteSerializer
    paginate = False

    def get_queryset(self):
        return super().get_queryset().filter(user_id=int(self.params.route["userId"]))

    def perform_create(self, serializer):
        serializer.save(user_id=int(self.params.route["userId"]))


_HERE = "tests.client.services."

#: `DJANGO_SERVICES` of the live-server tests.
LIVE_SETTINGS = {
    "SERVICES": {
        "echo": {"class": _HERE + "EchoService", "multi": True},
        "api/v1/messages": _HERE + "EchoService",
        "users/:userId/echo": _HERE + "EchoService",
        "readonly": _HERE + "ReadOnlyService",
        "nothing": _HERE + "NothingService",
        "failing": _HERE + "FailingService",
        "whoami": _HERE + "WhoAmIService",
        "todos": _HERE + "TodoService",
        "people": _HERE + "PersonService",
        "tagged": _HERE + "TaggedPersonService",
        "samples": _HERE + "SampleService",
        "users/:userId/notes": _HERE + "UserNoteService",
    },
    "AUTHENTICATION": {"SECRET": "a-test-secret-for-the-client-tests-long-enough-for-hs256"},
}

"""
The services of the conformance fixture, written with the package's public server API only.

    people               id `id`; name, age (nullable), created; a list; multi
    people-paginated     the same, paginated {default: 10, max: 50}
    people-customid      the same, id field `customid` (given, or generated when absent)
    api/v1/messages      text, userId, read; paginated {default: 10, max: 50}; multi off
    todos                text, complete; custom method `markAllComplete`
    users                email, password (hashed, never sent); create is public
    secrets              find, and create (nothing stored), with a valid JWT
    users/:userId/notes  text, userId; every method on the route's user's notes
    errors               get(<code>) raises the error of that status

Their events reach socket.io connections as `realtime.ConformancePublisher` and the services'
own `publish` methods decide (the channel policy of CONTRACT-SOCKETS.md).
"""

from __future__ import annotations

import itertools
import uuid

from rest_framework import permissions, serializers

from django_services import errors
from django_services.server import ModelService, Service, service_method
from django_services.server.authentication import JWTAuthentication, UserService
from django_services.server.socketio import channel
from tests.testapp.models import Message, Note, Person, PersonCustomId, Todo

PAGINATE = {"default": 10, "max": 50}

_secret_ids = itertools.count(1)

#: The statuses `errors.get(<code>)` answers with their Feathers class.
ERROR_CODES = (400, 401, 402, 403, 404, 405, 406, 408, 409, 410, 411, 422, 429, 500, 501, 502, 503)


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]


class PersonCustomIdSerializer(serializers.ModelSerializer):
    class Meta:
        model = PersonCustomId
        fields = ["customid", "name", "age", "created"]
        extra_kwargs = {"customid": {"required": False}}

    def create(self, validated_data):
        # As Feathers' adapters do, a record created without an id is given one.
        validated_data.setdefault("customid", uuid.uuid4().hex)
        return super().create(validated_data)


class MessageSerializer(serializers.ModelSerializer):
    userId = serializers.IntegerField(source="user_id")

    class Meta:
        model = Message
        fields = ["id", "text", "userId", "read"]


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]


class NoteSerializer(serializers.ModelSerializer):
    userId = serializers.IntegerField(source="user_id", read_only=True)

    class Meta:
        model = Note
        fields = ["id", "text", "userId"]


class PersonService(ModelService):
    queryset = Person.objects.order_by("pk")
    serializer_class = PersonSerializer
    paginate = False
    multi = True


class PaginatedPersonService(PersonService):
    paginate = PAGINATE


class PersonCustomIdService(ModelService):
    queryset = PersonCustomId.objects.order_by("pk")
    serializer_class = PersonCustomIdSerializer
    id_field = "customid"
    paginate = False
    multi = True


class MessageService(ModelService):
    queryset = Message.objects.order_by("pk")
    serializer_class = MessageSerializer
    paginate = PAGINATE
    multi = False

    def publish(self, event):
        """A message reaches its owner's connections only."""
        return channel(f"users/{event.data['userId']}")


class TodoService(ModelService):
    queryset = Todo.objects.order_by("pk")
    serializer_class = TodoSerializer
    paginate = False

    events = ["markedAllComplete"]

    @service_method(name="markAllComplete")
    def mark_all_complete(self, data, params):
        """Complete every open todo; answer how many changed, in an event too."""
        result = {"updated": self.get_queryset().filter(complete=False).update(complete=True)}
        self.emit("markedAllComplete", result)
        return result


class CreateOrAuthenticated(permissions.BasePermission):
    """Anyone may sign up (create); every other method needs an authenticated user."""

    def has_permission(self, request, view):
        return view.action == "create" or bool(request.user and request.user.is_authenticated)


class ConformanceUserService(UserService):
    authentication_classes = [JWTAuthentication]
    permission_classes = [CreateOrAuthenticated]
    paginate = False
    # The Feathers specs change a password right after a password login, without the old one.
    password_login_age = 300

    def publish(self, event):
        """Users go to every logged-in connection, and to the user's own (once each)."""
        return [channel("authenticated"), channel(f"users/{event.data['id']}")]


class SecretService(Service):
    authentication_classes = [JWTAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    def find(self, params):
        return [{"id": 1, "secret": "42"}]

    def create(self, data, params):
        """Answer a new number and the secret sent; nothing is stored."""
        secret = data.get("secret") if isinstance(data, dict) else None
        return {"id": next(_secret_ids), "secret": secret}

    def publish(self, event):
        """Secrets are published to nobody."""
        return None


class NoteService(ModelService):
    """The notes of the user the route names (`users/:userId/notes`)."""

    queryset = Note.objects.order_by("pk")
    serializer_class = NoteSerializer
    paginate = False

    def route_user_id(self) -> int:
        user_id = self.params.route["userId"]
        if not user_id.isdigit():
            raise errors.BadRequest(f"Invalid value '{user_id}' for userId: not an integer")
        return int(user_id)

    def get_queryset(self):
        return super().get_queryset().filter(user_id=self.route_user_id())

    def perform_create(self, serializer):
        serializer.save(user_id=self.route_user_id())


class ErrorService(Service):
    """`get(<code>)` raises the Feathers error of that status; any other id, a plain bug."""

    def get(self, id, params):
        code = int(id) if id.isdigit() else None
        if code in ERROR_CODES:
            raise errors.errors[code](f"boom {code}", {"reason": "test"})
        raise RuntimeError(f"boom {id}")

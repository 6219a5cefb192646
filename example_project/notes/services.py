"""
The `users/:userId/notes` service: the notes of the user the path names, for that user only.

    GET  /users/1/notes                       -> the notes of user 1 (when user 1 asks)
    POST /users/1/notes  {"text": "Call Bob"} -> 201, a note of user 1
    GET  /users/2/notes                       -> 403 Forbidden for user 1

Calls made in Python name the user in the route too:
`get_service("users/:userId/notes").find(Params(route={"userId": "1"}))`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_services.errors import BadRequest
from django_services.server import ModelService, ServiceEvent
from django_services.server.socketio import Channel, channel

from .models import Note
from .permissions import IsRouteUser
from .serializers import NoteSerializer


class NoteService(ModelService):
    queryset = Note.objects.all()
    serializer_class = NoteSerializer
    permission_classes = [IsRouteUser]
    multi = ["remove"]

    def get_queryset(self) -> QuerySet[Note]:
        """The notes of the route's user."""
        return super().get_queryset().filter(user_id=self.route_user_id())

    def perform_create(self, serializer: Any) -> None:
        serializer.save(user_id=self.route_user_id())

    def publish(self, event: ServiceEvent) -> Channel:
        """A note's events go to its owner's connections only: notes are private."""
        return channel(f"users/{event.data['userId']}")

    def route_user_id(self) -> int:
        """The `:userId` of the path, as an integer."""
        value = self.params.route.get("userId", "") if self.params is not None else ""
        if not (value.isascii() and value.isdigit()):
            raise BadRequest(f"Invalid userId '{value}' in the path: it must be a number.")
        return int(value)

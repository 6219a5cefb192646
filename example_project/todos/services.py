"""
The `todos` service: the caller's todos, and `markAllComplete` to complete them at once.

    POST  /todos   {"text": "Buy milk"}                                      -> 201
    PATCH /todos/1 {"complete": true}                                        -> 200
    POST  /todos   {}  X-Service-Method: markAllComplete                     -> {"updated": 2}
    DELETE /todos?complete=true                                              -> the removed todos

Over socket.io, each todo's `created`, `patched` and `removed` events, and `markedAllComplete`
(`{"updated": n, "userId": ...}`), reach its owner's connections only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_services.server import ModelService, Params, ServiceEvent, service_method
from django_services.server.socketio import Channel, channel
from rest_framework.permissions import IsAuthenticated

from .models import Todo
from .serializers import TodoSerializer


class TodoService(ModelService):
    queryset = Todo.objects.all()
    serializer_class = TodoSerializer
    permission_classes = [IsAuthenticated]
    # Clearing the completed todos is one `remove(null, {query: {complete: true}})`.
    multi = ["remove"]
    events = ["markedAllComplete"]

    def get_queryset(self) -> QuerySet[Todo]:
        """Only the todos of the calling user (every todo for calls made in Python)."""
        queryset = super().get_queryset()
        user = self.params.user if self.params is not None else None
        if user is None:
            return queryset
        return queryset.filter(owner=user)

    def perform_create(self, serializer: Any) -> None:
        serializer.save(owner=self.params.user)

    def publish(self, event: ServiceEvent) -> Channel | None:
        """Each todo's events go to its owner's connections only: todos are private."""
        owner = event.data.get("userId")
        return channel(f"users/{owner}") if owner is not None else None

    @service_method(name="markAllComplete")
    def mark_all_complete(self, data: Any, params: Params) -> dict[str, int]:
        """Complete every todo of the caller that the query matches; answer how many changed."""
        todos = self.get_matching_queryset(params).filter(complete=False)
        updated = todos.update(complete=True)
        # One event for the whole update, which emits no `patched` events.
        owner = params.user.pk if params.user is not None else None
        self.emit("markedAllComplete", {"updated": updated, "userId": owner})
        return {"updated": updated}

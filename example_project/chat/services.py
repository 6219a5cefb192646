"""
The `api/v1/messages` service: every user's messages, newest first on request, paginated.

    GET  /api/v1/messages?$sort[createdAt]=-1&$limit=5
         -> {"total": 24, "limit": 5, "skip": 0, "data": [...]}
    GET  /api/v1/messages?text[$ilike]=%25django%25
    POST /api/v1/messages  {"text": "Hello"}    -> 201, userId is the caller's
"""

from __future__ import annotations

from typing import Any

from django_services.server import ModelService, ServiceEvent
from django_services.server.socketio import Channel, channel
from rest_framework.permissions import IsAuthenticated

from .models import Message
from .permissions import AuthorCanChange
from .serializers import MessageSerializer


class MessageService(ModelService):
    queryset = Message.objects.all()
    serializer_class = MessageSerializer
    permission_classes = [IsAuthenticated, AuthorCanChange]
    paginate = {"default": 10, "max": 50}
    operators = ["$like", "$ilike"]
    # Every logged-in user reads every message: one read check per event, whoever listens,
    # and a removal reaches every reader.
    event_readers = "shared"

    def perform_create(self, serializer: Any) -> None:
        serializer.save(user=self.params.user)

    def publish(self, event: ServiceEvent) -> Channel:
        """Every logged-in connection hears of every message: the chat is shared."""
        return channel("authenticated")

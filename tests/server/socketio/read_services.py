"""
Services whose records only some users may read, for the tests of the events' read rule.

`notes`: each user reads their own notes, staff every note, anonymous users none (the
`get_queryset` of docs/authentication.md); `shared-notes`: every logged-in user reads every
note, declared (`event_readers = "shared"`); `open-notes`: per-user reads, but its events go
wherever the channels say (`event_readers = "unchecked"`); `guarded-notes`: `notes` with an
object permission besides; `data-notes`: `open-notes` whose channels have data of their own;
`active-notes`: `shared-notes` read by staff, and by users whose account the database still
says is active.
"""

from __future__ import annotations

from rest_framework import permissions

from django_services.server import ModelService, service_method
from django_services.server.authentication import JWTAuthentication
from django_services.server.socketio import Publisher, channel
from tests.interop.conformance.services import NoteSerializer
from tests.testapp.models import Note, User


class NoteService(ModelService):
    authentication_classes = [JWTAuthentication]
    queryset = Note.objects.order_by("pk")
    serializer_class = NoteSerializer
    paginate = False
    multi = True
    events = ["pinged"]

    def get_queryset(self):
        user = self.params.user
        queryset = super().get_queryset()
        if user is not None and user.is_staff:
            return queryset
        return queryset.filter(user_id=getattr(user, "pk", None))

    def perform_create(self, serializer):
        serializer.save(user_id=self.params.user.pk)

    @service_method
    def ping(self, data, params):
        """Emit `pinged` with the note of `data["id"]`, or with data that is not a note."""
        payload = {"id": data["id"]} if "id" in data else {"count": data["count"]}
        self.emit("pinged", payload)
        return payload


class SharedNoteService(NoteService):
    permission_classes = [permissions.IsAuthenticated]
    event_readers = "shared"

    def get_queryset(self):
        return Note.objects.order_by("pk")


class OpenNoteService(NoteService):
    event_readers = "unchecked"


class DataNoteService(OpenNoteService):
    """Events to every logged-in connection and to the writer's own, each with data of its own."""

    def publish(self, event):
        writer = event.context.params.user.pk
        return [
            channel("authenticated").send({"id": event.data["id"], "via": "everyone"}),
            channel(f"users/{writer}").send({"id": event.data["id"], "via": "own"}),
        ]


class NotHidden(permissions.BasePermission):
    """Notes whose text starts with "hidden" are for staff only: an object permission."""

    def has_object_permission(self, request, view, obj):
        return request.user.is_staff or not obj.text.startswith("hidden")


class GuardedNoteService(NoteService):
    permission_classes = [NotHidden]


class StillActive(permissions.BasePermission):
    """Staff, or a user whose account is active now: asks the database for non-staff users."""

    def has_permission(self, request, view):
        user = request.user
        if user.is_staff:
            return True
        return User.objects.filter(pk=user.pk, is_active=True).exists()


class ActiveNoteService(SharedNoteService):
    permission_classes = [StillActive]


class EveryonePublisher(Publisher):
    """Every event to every connection, anonymous or not: only the read rule filters."""

    def publish(self, event):
        return channel("anonymous", "authenticated")


S = "tests.server.socketio.read_services."
SERVICES = {
    "notes": S + "NoteService",
    "shared-notes": S + "SharedNoteService",
    "open-notes": S + "OpenNoteService",
    "guarded-notes": S + "GuardedNoteService",
    "active-notes": S + "ActiveNoteService",
}

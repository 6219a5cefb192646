"""Services with conditional requests, for the server, socket.io and concurrency tests."""

from __future__ import annotations

from django.utils import timezone
from rest_framework import serializers

from django_services.server import ModelService
from tests.testapp.models import Sample, Todo


class VersionedSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="integer", read_only=True)
    updated = serializers.DateTimeField(source="moment", read_only=True)

    class Meta:
        model = Sample
        fields = ["id", "text", "flag", "version", "updated"]


class VersionedService(ModelService):
    """Records with a version number and an update time, both set on every write."""

    authentication_classes = []
    queryset = Sample.objects.order_by("pk")
    serializer_class = VersionedSerializer
    etag_field = "integer"
    last_modified_field = "moment"
    multi = ["patch", "remove"]

    def perform_create(self, serializer):
        serializer.save(integer=1, moment=timezone.now())

    def perform_update(self, serializer):
        serializer.save(integer=serializer.instance.integer + 1, moment=timezone.now())


class GuardedVersionedService(VersionedService):
    """Writes by id must say which version they change (428 without If-Match)."""

    require_preconditions = True


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "text", "complete"]


class TodoService(ModelService):
    """ETags of the representation (no declared field)."""

    authentication_classes = []
    queryset = Todo.objects.order_by("pk")
    serializer_class = TodoSerializer
    multi = ["patch", "remove"]

from __future__ import annotations

from rest_framework import serializers

from .models import Note


class NoteSerializer(serializers.ModelSerializer):
    userId = serializers.PrimaryKeyRelatedField(source="user", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta:
        model = Note
        fields = ["id", "text", "userId", "updatedAt"]

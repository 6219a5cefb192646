from __future__ import annotations

from rest_framework import serializers

from .models import Message


class MessageSerializer(serializers.ModelSerializer):
    userId = serializers.PrimaryKeyRelatedField(source="user", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)

    class Meta:
        model = Message
        fields = ["id", "text", "userId", "createdAt"]

from __future__ import annotations

from rest_framework import serializers

from .models import Todo


class TodoSerializer(serializers.ModelSerializer):
    userId = serializers.PrimaryKeyRelatedField(source="owner", read_only=True)

    class Meta:
        model = Todo
        fields = ["id", "text", "complete", "userId"]

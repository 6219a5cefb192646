"""The serializer shared by the django-feathers and DRF variants."""

from __future__ import annotations

from rest_framework import serializers

from .models import Person


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]
        read_only_fields = ["created"]

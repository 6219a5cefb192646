from __future__ import annotations

from django.contrib import admin

from .models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["text", "user", "created_at"]
    search_fields = ["text"]

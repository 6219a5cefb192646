from __future__ import annotations

from django.contrib import admin

from .models import Note


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ["text", "user", "updated_at"]
    search_fields = ["text"]

from __future__ import annotations

from django.contrib import admin

from .models import Todo


@admin.register(Todo)
class TodoAdmin(admin.ModelAdmin):
    list_display = ["text", "complete", "owner"]
    list_filter = ["complete"]
    search_fields = ["text"]

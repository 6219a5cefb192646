from __future__ import annotations

from django.apps import AppConfig


class TodosConfig(AppConfig):
    name = "todos"
    verbose_name = "Todos"

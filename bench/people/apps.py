"""The `people` app of the benchmark project (label `people`)."""

from __future__ import annotations

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "bench.people"
    label = "people"
    default_auto_field = "django.db.models.BigAutoField"

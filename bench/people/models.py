"""
The benchmarked table: `people(id, name, age, created)`, indexed on age and on name.

    Person.objects.filter(age__gt=30).order_by("-age", "id")[:10]

The table is created and filled by `bench.data`, not by migrations.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Person(models.Model):
    name = models.CharField(max_length=100)
    age = models.IntegerField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "people"
        indexes = [
            models.Index(fields=["age"], name="people_age_idx"),
            models.Index(fields=["name"], name="people_name_idx"),
        ]

    def __str__(self) -> str:
        return self.name

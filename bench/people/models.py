"""
The benchmarked table: `people(id, name, age, created)`, indexed on age and on name.

    Person.objects.filter(age__gt=30).order_by("-age", "-id")[:10]

Each index ends with the primary key, `(age, id)` and `(name, id)`, as the query documentation
recommends: a sorted or filtered page is ordered by the column, then by id for ties, and
such an index serves the filter and the whole ORDER BY (SQLite's indexes end with the rowid
anyway; PostgreSQL's need the column). The table is created and filled by `bench.data`, not
by migrations.
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
            models.Index(fields=["age", "id"], name="people_age_id_idx"),
            models.Index(fields=["name", "id"], name="people_name_id_idx"),
        ]

    def __str__(self) -> str:
        return self.name

"""
The benchmarked table: `people(id, name, age, created)`, indexed on age and on name, in one of
two shapes (`BENCH_INDEXES`, one per table):

- `composite` (default): each index ends with the primary key, `(age, id)` and `(name, id)`,
  as the query documentation recommends: a sorted or filtered page is ordered by the column,
  then by id for ties, and such an index serves the filter and the whole ORDER BY (SQLite's
  indexes end with the rowid anyway; PostgreSQL's need the column);
- `single`: the plain one-column indexes `db_index=True` gives, what most tables have, on a
  nullable `age` (no row holds NULL), as such tables often declare it: the queries must not pay
  for NULL handling that a hand-written queryset does not have.

    Person.objects.filter(age__gt=30).order_by("-age", "-id")[:10]

The table is created and filled by `bench.data`, not by migrations.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from ..databases import index_shape

SINGLE = index_shape() == "single"


class Person(models.Model):
    name = models.CharField(max_length=100, db_index=SINGLE)
    age = models.IntegerField(db_index=SINGLE, null=SINGLE)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "people"
        indexes = (
            []
            if SINGLE
            else [
                models.Index(fields=["age", "id"], name="people_age_id_idx"),
                models.Index(fields=["name", "id"], name="people_name_id_idx"),
            ]
        )

    def __str__(self) -> str:
        return self.name


#: The columns of each index of the table, for checking a table made earlier.
INDEX_COLUMNS = {("age",), ("name",)} if SINGLE else {("age", "id"), ("name", "id")}

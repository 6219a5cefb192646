"""
The fields a query may name, as the query package sees them.

    QueryField("userId", path="user_id", model_field=Note._meta.get_field("user"))
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

__all__ = ["QueryField"]


@dataclass(frozen=True)
class QueryField:
    """
    A field a query may name.

    **Parameters:**

    * **name** - the name in queries and results, e.g. `"userId"`.
    * **path** - the ORM lookup path, e.g. `"user_id"` or `"owner__name"`.
    * **model_field** - the Django model field the path ends at; values convert by its type.
    * **sortable** - whether `$sort` may name the field.
    * **operators** - the operators queries may apply to the field (`None`: every one the
      service accepts); others are a 400 naming the field and the operator.
    """

    name: str
    path: str
    model_field: models.Field
    sortable: bool = True
    operators: frozenset[str] | None = None

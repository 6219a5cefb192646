"""
The Feathers page: `{"total": N, "limit": L, "skip": S, "data": [...]}`.

    class MessageService(ModelService):
        paginate = {"default": 10, "max": 50}
        pagination_class = FeathersPagination   # the default of ModelService

`$limit` and `$skip` come from the Feathers query of the call (`get_query`), already
normalised against the `paginate` option of the service's query declaration
(`get_query_declaration`): a page costs one SELECT and at most one
COUNT (none when the page itself shows the total), and `$limit=0` only the COUNT.

On PostgreSQL, `paginate = {..., "estimate_total_above": N}` replaces the COUNT of a large
match by the query planner's estimate (`EXPLAIN`): when the planner expects more than N rows,
`total` is its estimate, otherwise the exact count. Other databases always count.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from ...query.orm import fetch_page
from ...query.parse import FeathersQuery
from .query_set import QueryDeclaration

__all__ = ["FeathersPagination", "planner_estimate"]


class FeathersPagination(BasePagination):
    """
    Paginate a find as Feathers does, when the service has a `paginate` option.

    `paginate_queryset` returns `None` when the service is not paginated; the service then
    answers a plain list (still honouring `$limit` and `$skip`).
    """

    total: int = 0
    limit: int | None = None
    skip: int = 0
    #: Whether `total` is the planner's estimate rather than a count.
    estimated: bool = False

    def get_query(self, request: Any, view: Any) -> FeathersQuery | None:
        """The parsed query of the view's call in progress (None outside a call)."""
        call = getattr(view, "call", None)
        return call.query if call is not None else None

    def get_query_declaration(self, view: Any) -> QueryDeclaration | None:
        """The view's query declaration: its `paginate` option decides the page size."""
        get_declaration = getattr(view, "get_query_declaration", None)
        return get_declaration() if get_declaration is not None else None

    # Feathers pages are counted and fetched in the database: only querysets are paginated.
    def paginate_queryset(  # type: ignore[override]
        self, queryset: QuerySet, request: Any, view: Any = None
    ) -> list[Any] | None:
        """Count the matches and return the rows of the requested page."""
        declaration = self.get_query_declaration(view)
        if declaration is None or not declaration.get_paginate():
            return None
        query = self.get_query(request, view)
        if query is None:
            return None
        self.limit = query.limit
        self.skip = query.skip
        threshold = declaration.get_estimate_total_above()
        self.estimated = False
        total, rows = fetch_page(
            queryset,
            query,
            paginated=True,
            count=lambda matches: self.count(matches, estimate_above=threshold),
        )
        if self.estimated and query.limit != 0:
            # Keep the estimate in line with the page: at least the rows it shows, and no more
            # than `$skip` when nothing is left at `$skip`.
            total = max(total or 0, self.skip + len(rows)) if rows else min(total or 0, self.skip)
        self.total = total or 0
        return rows

    def count(self, queryset: QuerySet, *, estimate_above: int | None = None) -> int:
        """
        The total of the matches: the planner's estimate when it exceeds `estimate_above`
        (PostgreSQL only), else `COUNT(*)`.
        """
        if estimate_above is not None:
            estimate = planner_estimate(queryset)
            if estimate is not None and estimate > estimate_above:
                self.estimated = True
                return estimate
        return queryset.count()

    def get_paginated_data(self, data: list[Any]) -> dict[str, Any]:
        """The page as a dict, keys in Feathers' order."""
        return {"total": self.total, "limit": self.limit, "skip": self.skip, "data": data}

    def get_paginated_response(self, data: list[Any]) -> Response:
        """The page as a DRF response."""
        return Response(self.get_paginated_data(data))

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The OpenAPI schema of a page whose records follow `schema`."""
        return {
            "type": "object",
            "required": ["total", "limit", "skip", "data"],
            "properties": {
                "total": {"type": "integer", "example": 123},
                "limit": {"type": "integer", "example": 10},
                "skip": {"type": "integer", "example": 0},
                "data": schema,
            },
        }


def planner_estimate(queryset: QuerySet) -> int | None:
    """
    The number of rows PostgreSQL's planner expects `queryset` to return, from `EXPLAIN`
    (no row is read). None on other databases, whose estimates are not worth a total.
    """
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    sql, params = queryset.order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])

"""
The Feathers page: `{"total": N, "limit": L, "skip": S, "data": [...]}`.

    class MessageService(ModelService):
        paginate = {"default": 10, "max": 50}
        pagination_class = FeathersPagination   # the default of ModelService

`$limit` and `$skip` come from the Feathers query of the call (see `filters.py`), already
normalised against the service's `paginate` option: a page costs one SELECT and at most one
COUNT (none when the page itself shows the total), and `$limit=0` only the COUNT.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from ..query.orm import fetch_page

__all__ = ["FeathersPagination"]


class FeathersPagination(BasePagination):
    """
    Paginate a find as Feathers does, when the service has a `paginate` option.

    `paginate_queryset` returns `None` when the service is not paginated; the service then
    answers a plain list (still honouring `$limit` and `$skip`).
    """

    total: int = 0
    limit: int | None = None
    skip: int = 0

    def paginate_queryset(
        self, queryset: QuerySet, request: Any, view: Any = None
    ) -> list[Any] | None:
        """Count the matches and return the rows of the requested page."""
        if view is None or not view.get_paginate():
            return None
        query = view.feathers_query
        self.limit = query.limit
        self.skip = query.skip
        total, rows = fetch_page(queryset, query, paginated=True)
        self.total = total or 0
        return rows

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

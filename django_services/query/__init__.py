"""
The Feathers query language: query strings, checked queries, and querysets.

    from django_services.query import codec, find, model_query_fields, parse_query

    fields = model_query_fields(Person)
    query = parse_query(codec.parse("age[$gte]=18&$sort[name]=1"), fields=fields)
    total, people = find(Person.objects.all(), query, paginated=True)

`codec` needs neither Django settings nor a database; the rest needs Django's ORM (not DRF).
"""

from __future__ import annotations

from . import codec
from .limits import QueryLimits
from .operators import (
    FunctionOperator,
    ILike,
    Like,
    LookupOperator,
    Operator,
    OperatorRegistry,
    operators,
    register_operator,
)
from .orm import apply_filters, apply_select, fetch_page, find, to_q
from .parse import (
    FILTERS,
    OPERATORS,
    OPTIONAL_OPERATORS,
    And,
    Comparison,
    Condition,
    FeathersQuery,
    Or,
    Paginate,
    QueryField,
    model_query_fields,
    parse_query,
)

__all__ = [
    "FILTERS",
    "OPERATORS",
    "OPTIONAL_OPERATORS",
    "And",
    "Comparison",
    "Condition",
    "FeathersQuery",
    "FunctionOperator",
    "ILike",
    "Like",
    "LookupOperator",
    "Operator",
    "OperatorRegistry",
    "Or",
    "Paginate",
    "QueryField",
    "QueryLimits",
    "apply_filters",
    "apply_select",
    "codec",
    "fetch_page",
    "find",
    "model_query_fields",
    "operators",
    "parse_query",
    "register_operator",
    "to_q",
]

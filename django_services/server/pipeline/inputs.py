"""
The checks of a call's input, one step below every transport.

    check_input(context)      # BadRequest saying what is wrong, before the method runs

REST decodes a body and a query string, socket.io a JSON event; either way, the call's `id`,
`data` and `params.query` reach this step as Python values, and get the same limits:

* the data takes at most Django's `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes as JSON (what a body
  may take) and nests at most `DJANGO_SERVICES["BODY_DEPTH_LIMIT"]` levels; the query at most
  `QUERY_DEPTH_LIMIT` levels below its parameters, with at most `QUERY_PARAMETER_LIMIT`
  values and lists of at most `QUERY_LIST_LIMIT` items (what a query string may say);
* every string of the id and the query (keys too) is valid Unicode text: no lone surrogate,
  which JSON's `\\ud800` escapes can carry and no database accepts (the data may hold one,
  a valid JavaScript string: a plain service echoes it escaped, a model field refuses it);
* every number is finite (JSON has no `NaN` nor `Infinity`, though Python's decoder reads them);

Errors name the rule, never the offending input: an answer must not echo unbounded input.

A query string is parsed within the same limits (`query.codec.parse`, which decodes no lone
surrogate): a query REST read from one (`context.query_checked`) is not walked again.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig

from ...conf import services_settings
from ...errors import BadRequest

__all__ = ["check_data", "check_input", "check_query", "check_text"]


def check_input(context: Any) -> None:
    """Check the id, data and query of a call (a `CallContext`); BadRequest if one is bad."""
    if isinstance(context.id, str):
        check_text(context.id, "The id")
    if context.data is not None:
        check_data(context.data)
    if not context.query_checked:
        check_query(context.params.query)


def check_text(value: str, what: str) -> None:
    """BadRequest when `value` holds a lone surrogate."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest(f"{what} is not valid text: it holds a lone surrogate.") from None


def check_data(data: Any) -> None:
    """The limits of a call's data (see the module)."""
    limit = services_settings.BODY_DEPTH_LIMIT
    _walk(
        data,
        depth_limit=limit,
        too_deep=f"The body is nested too deeply: at most {limit} levels are allowed.",
        what="The body",
        text=False,
        size_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    )


def check_query(query: Any) -> None:
    """The limits of a call's query (see the module)."""
    if not query:
        return
    depth = services_settings.QUERY_DEPTH_LIMIT
    lists = services_settings.QUERY_LIST_LIMIT
    values = _walk(
        query,
        # A query string's `a[b][c]` is a value two brackets deep: three levels of objects.
        depth_limit=depth + 1,
        too_deep=f"The query is nested too deeply: at most {depth} levels are allowed.",
        what="The query",
        list_limit=lists,
    )
    parameters = services_settings.QUERY_PARAMETER_LIMIT
    if values > parameters:
        raise BadRequest(
            f"The query has more than {parameters} values: at most so many are allowed."
        )


def _walk(
    value: Any,
    *,
    depth_limit: int,
    too_deep: str,
    what: str,
    list_limit: int | None = None,
    text: bool = True,
    size_limit: int | None = None,
) -> int:
    """
    Check every value of a decoded JSON value iteratively; return how many scalars it has.
    Past `size_limit`, counted as the fewest bytes its JSON can take (so never more than a
    body that was read within the limit), RequestDataTooBig, which REST answers for a body.
    """
    scalars = 0
    size = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if size_limit is not None and size > size_limit:
            raise RequestDataTooBig("The data exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
        if isinstance(item, dict):
            if depth > depth_limit:
                raise BadRequest(too_deep)
            size += 2
            for key, child in item.items():
                if isinstance(key, str):
                    size += len(key) + 3
                    if text:
                        check_text(key, what)
                stack.append((child, depth + 1))
        elif isinstance(item, (list, tuple)):
            if depth > depth_limit:
                raise BadRequest(too_deep)
            if list_limit is not None and len(item) > list_limit:
                raise BadRequest(f"{what} has a list of more than {list_limit} items.")
            size += 2
            stack.extend((child, depth + 1) for child in item)
        else:
            scalars += 1
            size += 1
            if isinstance(item, str):
                size += len(item) + 1
                if text:
                    check_text(item, what)
            elif isinstance(item, float) and not math.isfinite(item):
                raise BadRequest(f"{what} holds a number JSON cannot hold (NaN or Infinity).")
    if size_limit is not None and size > size_limit:
        raise RequestDataTooBig("The data exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
    return scalars

"""
`If-Match` sent by a service on its own: the version last read of each record, by id.

    todos = app.use("todos", connection.service("todos"), if_match=True).service("todos")
    todo = todos.get(7)                     # ETag: "3", remembered for id 7
    todos.patch(7, {"text": "buy milk"})    # sent with If-Match: "3"; 412 if it changed since

A service made with `if_match=True` remembers the `ETag` of each answer to a `get`, `update` or
`patch` by id, and sends it as `If-Match` with the next `update`, `patch` or `remove` of that
id. With `if_match="version"` it remembers the record's `version` field instead and sends it as
the `$ifMatch` query key, which both REST and socket.io carry (a socket answer has no headers).

What is remembered is only what this service read: never a `412`'s current tag, never an event
(the point is to refuse a write made from a copy the user has not seen). A `remove` forgets the
id, and so does a `404`. The map is bounded: the records least recently read are forgotten
first, and a write of a forgotten id goes without a precondition, as it would without the
option. A call that sets `If-Match` (header or `$ifMatch`) itself is left as it is; a header
value of `None` sends none.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Awaitable, Mapping
from typing import Any

from ..errors import BadRequest, NotFound
from ._base import _js_string, fill_route, params_mapping
from .conditional import etag_of

__all__ = ["ETagMemory", "check_if_match"]

#: How many records' versions a service remembers, at most.
DEFAULT_SIZE = 1024
_READS = ("get", "update", "patch")
_WRITES = ("update", "patch", "remove")
_QUERY_KEY = "$ifMatch"


def check_if_match(value: Any, *, call_headers: bool = True) -> bool | str | None:
    """
    Check a service's `if_match` option: `None`/`False` (off), `True` (the answers' ETags) or
    the name of the records' version field. Raises `TypeError` for anything else, and for
    `True` on a connection whose answers carry no headers (socket.io).
    """
    if value is None or value is False:
        return None
    if value is True:
        if not call_headers:
            raise TypeError(
                "if_match=True reads the ETag header, which a socket answer does not carry: "
                "name the records' version field instead, e.g. if_match='version'."
            )
        return True
    if isinstance(value, str) and value:
        return value
    raise TypeError(f"if_match must be True or a version field's name, not {value!r}.")


class ETagMemory:
    """The version last read of each record of one service, by route and id; thread-safe."""

    def __init__(self, field: bool | str, *, size: int = DEFAULT_SIZE) -> None:
        #: `True` for ETag headers, or the version field's name.
        self.field = field
        self.size = size
        self._tags: collections.OrderedDict[tuple[str, str], Any] = collections.OrderedDict()
        self._lock = threading.Lock()

    def precondition(self, path: str, method: str, id: Any, params: Mapping[str, Any]) -> Any:
        """`params` with the remembered version of the record added, for a write by id."""
        if method not in _WRITES or id is None:
            return params
        headers = params_mapping(params, "headers")
        query = params_mapping(params, "query")
        if _QUERY_KEY in query or any(name.lower() == "if-match" for name in headers):
            return params
        with self._lock:
            tag = self._tags.get(self._key(path, id, params))
        if tag is None:
            return params
        if self.field is True:
            return {**params, "headers": {**headers, "If-Match": tag}}
        return {**params, "query": {**query, _QUERY_KEY: tag}}

    def remember(
        self, path: str, method: str, id: Any, params: Mapping[str, Any], result: Any
    ) -> Any:
        """Note the version `result` (the answer to a call by id) holds; return `result`."""
        if id is None or method not in (*_READS, "remove"):
            return result
        key = self._key(path, id, params)
        tag = self._tag(result) if method != "remove" else None
        with self._lock:
            if tag is None:
                self._tags.pop(key, None)
                return result
            self._tags[key] = tag
            self._tags.move_to_end(key)
            while len(self._tags) > self.size:
                self._tags.popitem(last=False)
        return result

    def forget(self, path: str, id: Any, params: Mapping[str, Any]) -> None:
        """Forget the version of a record (it does not exist)."""
        with self._lock:
            self._tags.pop(self._key(path, id, params), None)

    def wrap(self, path: str, method: str, id: Any, params: Mapping[str, Any], call: Any) -> Any:
        """Remember what the call by id `call` (run, blocking) answers, or forget on a 404."""
        try:
            return self.remember(path, method, id, params, call())
        except NotFound:
            if id is not None:
                self.forget(path, id, params)
            raise

    async def wrap_async(
        self, path: str, method: str, id: Any, params: Mapping[str, Any], call: Awaitable[Any]
    ) -> Any:
        """`wrap()` for a coroutine call."""
        try:
            return self.remember(path, method, id, params, await call)
        except NotFound:
            if id is not None:
                self.forget(path, id, params)
            raise

    def __len__(self) -> int:
        return len(self._tags)

    def _tag(self, result: Any) -> Any:
        if self.field is True:
            return etag_of(result)
        if isinstance(result, Mapping):
            return result.get(self.field)
        return None

    def _key(self, path: str, id: Any, params: Mapping[str, Any]) -> tuple[str, str]:
        # The same record whatever the id's type (7 and "7" are one URL) and route values.
        route = params_mapping(params, "route")
        try:
            filled = fill_route(path, route, lambda _name, value: _js_string(value))
        except BadRequest:  # a missing route value: the call itself says so
            filled = path
        return filled, _js_string(id)

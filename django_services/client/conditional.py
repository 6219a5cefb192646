"""
The validators of REST answers, kept with the results they came with.

    todo = todos.get(1)
    etag_of(todo)                                   # '"3"', the answer's ETag header
    todos.patch(1, {"done": True}, params={"headers": {"If-Match": etag_of(todo)}})
    # PreconditionFailed (412) when the record changed since it was read

A JSON object answered with an `ETag` comes back as a `dict` that also holds the tag; a copy
(`dict(todo)`, `{**todo}`) is a plain dict again. A socket answer carries no headers: there,
send the record's version field as `params["query"]["$ifMatch"]`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["etag_of", "tagged"]


class _Tagged(dict[str, Any]):
    """A JSON object of an answer, with the answer's `ETag` and `Last-Modified`."""

    __slots__ = ("etag", "last_modified")
    etag: str
    last_modified: str | None

    def __reduce__(self) -> Any:
        # Pickled (and copied) as the plain dict it is to everyone else.
        return (dict, (dict(self),))


def tagged(result: Any, etag: str | None, last_modified: str | None = None) -> Any:
    """`result` with the validators of its answer, when it is an object and there are some."""
    if etag is None or type(result) is not dict:
        return result
    record = _Tagged(result)
    record.etag = etag
    record.last_modified = last_modified
    return record


def etag_of(result: Any) -> str | None:
    """The `ETag` of the REST answer `result` came in (for `If-Match`), or None."""
    return getattr(result, "etag", None) if isinstance(result, _Tagged) else None

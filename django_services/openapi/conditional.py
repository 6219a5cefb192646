"""
The conditional requests of an operation (see `django_services.server.services.conditional`): the
`ETag` (and `Last-Modified`) headers of its answer, the `If-None-Match` and `If-Modified-Since`
of reads with their 304, the `If-Match` of writes with its 412, and 428 where the service
requires it.

    add_conditional(operation, "patch", service)   # in place
"""

from __future__ import annotations

from typing import Any

from ..server.services.conditional import IF_MATCH_KEY, IF_NONE_MATCH_KEY, ConditionalMixin
from .components import ERROR_SCHEMA

__all__ = ["add_conditional"]

_ETAG = {
    "description": "The strong entity tag of the answer: of the service's `etag_field`, "
    "else the SHA-256 of the body.",
    "schema": {"type": "string", "examples": ['"3"']},
}
_LAST_MODIFIED = {
    "description": "When the record last changed (its `last_modified_field`).",
    "schema": {"type": "string", "examples": ["Sat, 28 Nov 2026 11:00:00 GMT"]},
}
_READS = ("find", "get")
_WRITES = ("update", "patch", "remove")
_VALIDATED = ("find", "get", "create", "update", "patch")


def _header(name: str, description: str, *, required: bool = False) -> dict[str, Any]:
    return {
        "name": name,
        "in": "header",
        "required": required,
        "description": description,
        "schema": {"type": "string"},
    }


def _error(description: str) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def add_conditional(operation: dict[str, Any], name: str, service: Any) -> None:
    """Add the conditional headers and answers of the operation `name` of `service`."""
    responses = operation["responses"]
    modified = isinstance(service, ConditionalMixin) and getattr(
        service, "last_modified_field", None
    )
    headers = {"ETag": _ETAG, **({"Last-Modified": _LAST_MODIFIED} if modified else {})}
    parameters = operation.setdefault("parameters", [])
    if name in _VALIDATED:
        for status in ("200", "201"):
            if status in responses:
                responses[status].setdefault("headers", {}).update(headers)
    if name in _READS:
        parameters.append(
            _header(
                "If-None-Match",
                "Entity tags of the copies the client holds: 304 when one is current (or "
                f"the query key `{IF_NONE_MATCH_KEY}`).",
            )
        )
        if modified:
            parameters.append(
                _header("If-Modified-Since", "304 when the record has not changed since.")
            )
        responses["304"] = {
            "description": "Not modified: the client's copy is current; no body.",
            "headers": headers,
        }
    if name in _WRITES and isinstance(service, ConditionalMixin):
        required = bool(getattr(service, "require_preconditions", False))
        parameters.append(
            _header(
                "If-Match",
                "The entity tag of the record as read (`*`: any): 412 when it has changed "
                f"(or the query key `{IF_MATCH_KEY}`).",
                required=required,
            )
        )
        responses["412"] = _error("Precondition failed: the record changed since it was read.")
        if required:
            responses["428"] = _error("Precondition required: `If-Match` is missing.")

"""
How a service call travels over socket.io: an event named after the method, with an ack.

    request = build_socket_request("patch", "users/:userId/notes", {"route": {"userId": 7}},
                                   id=3, data={"done": True})
    request.event, request.args     # "patch", ("users/7/notes", 3, {"done": True}, {})

The arguments are the path (route placeholders filled in), then the method's own, then the
query; only `params["query"]` crosses the wire. Values are typed JSON, written as REST writes
them (dates as ISO strings, decimals and UUIDs as strings).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from ...contract import METHODS_REQUIRING_ID
from ...errors import BadRequest
from .._base import Request, encode_json, fill_route, params_mapping

__all__ = ["SocketRequest", "build_socket_request"]


@dataclasses.dataclass(frozen=True)
class SocketRequest(Request):
    """One call over socket.io: the event (the method) and its arguments."""

    event: str = ""
    path: str = ""
    args: tuple[Any, ...] = ()


def build_socket_request(
    method: str,
    path: str,
    params: Mapping[str, Any] | None = None,
    *,
    id: Any = None,
    data: Any = None,
) -> SocketRequest:
    """
    Describe the call of `method` on the service at `path`.

    Raises `BadRequest` before anything is sent when a required id or route value is missing,
    or when the data or query can not be sent as JSON.
    """
    params = params or {}
    query = _json(params_mapping(params, "query"), "query")
    route = params_mapping(params, "route")
    options = params_mapping(params, "connection")
    params_mapping(params, "headers")  # checked as REST does; headers only travel in the handshake
    if (isinstance(id, str) and not id) or (id is None and method in METHODS_REQUIRING_ID):
        raise BadRequest(f"id for '{method}' is required")
    filled = fill_route(path.strip("/"), route, _raw_segment)
    if method == "find":
        args: tuple[Any, ...] = (filled, query)
    elif method in ("get", "remove"):
        args = (filled, _json(id, "id"), query)
    elif method in ("update", "patch"):
        args = (filled, _json(id, "id"), _json(data, "data"), query)
    else:  # create and the custom methods
        args = (filled, _json(data, "data"), query)
    return SocketRequest(
        service_method=method,
        method=method,
        url=filled,
        headers={},
        options=options,
        event=method,
        path=filled,
        args=args,
    )


def _raw_segment(name: str, value: Any) -> str:
    # Inserted raw, as the Feathers socket client does.
    segment = json.loads(encode_json(value)) if not isinstance(value, str) else value
    return str(segment).lower() if isinstance(segment, bool) else str(segment)


def _json(value: Any, what: str) -> Any:
    try:
        return json.loads(encode_json(value))
    except BadRequest as exc:
        raise BadRequest(f"The {what} can not be sent over socket.io: {exc}") from exc

"""
How a service call travels over socket.io: an event named after the method, with an ack.

    call = build_socket_call("patch", "users/:userId/notes", {"route": {"userId": 7}},
                             id=3, data={"done": True})
    call.event, call.args     # "patch", ("users/7/notes", 3, {"done": True}, {})
    SocketAck.of((None, {"id": 3}))     # what the server acknowledged: a result, or an error

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
from .._base import encode_json, fill_route, params_mapping

__all__ = ["SocketAck", "SocketCall", "build_socket_call"]


@dataclasses.dataclass(frozen=True)
class SocketCall:
    """One service call over socket.io, described without sending it."""

    #: The method called, which is also the event sent.
    service_method: str
    #: The service's path, its route placeholders filled in.
    path: str
    #: The event's arguments: the path, then the method's own, then the query.
    args: tuple[Any, ...]
    #: `params["connection"]`: options for this call only (`timeout`).
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: The access token the socket was logged in with when the call was made, if any: the
    #: credential a 401 of the call is about.
    credential: str | None = dataclasses.field(default=None, repr=False)

    @property
    def event(self) -> str:
        """The socket.io event: the method's name."""
        return self.service_method


@dataclasses.dataclass(frozen=True)
class SocketAck:
    """What the server acknowledged a call with: `[null, result]`, or `[error]`."""

    ok: bool
    result: Any = None
    error: Any = None

    @classmethod
    def of(cls, args: tuple[Any, ...]) -> SocketAck:
        """The ack of the arguments python-socketio called back with."""
        if len(args) >= 2 and args[0] is None:
            return cls(ok=True, result=args[1])
        return cls(ok=False, error=args[0] if args else None)


def build_socket_call(
    method: str,
    path: str,
    params: Mapping[str, Any] | None = None,
    *,
    id: Any = None,
    data: Any = None,
    credential: str | None = None,
) -> SocketCall:
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
    return SocketCall(method, filled, args, options, credential)


def _raw_segment(name: str, value: Any) -> str:
    # Inserted raw, as the Feathers socket client does.
    segment = json.loads(encode_json(value)) if not isinstance(value, str) else value
    return str(segment).lower() if isinstance(segment, bool) else str(segment)


def _json(value: Any, what: str) -> Any:
    try:
        return json.loads(encode_json(value))
    except BadRequest as exc:
        raise BadRequest(f"The {what} can not be sent over socket.io: {exc}") from exc

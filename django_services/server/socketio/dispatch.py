"""
Feathers socket calls, answered by the project's services.

    ack = await dispatch(connection, "get", ["people", 1, {"$select": ["name"]}])
    ack   # (None, {"id": 1, "name": "Ada"}) on success, ({"name": "NotFound", ...},) on error

An event's name is the method and its arguments are the service path, then the method's
positional arguments, then the query. The call runs as the same call over REST would: DRF's
authentication, permissions and throttles of the service, its exception handler, the same
data parsing and limits; only the query arrives as typed JSON instead of a query string. The
answer is the ack python-socketio sends: `(None, result)` or `(error,)`.

The socket's login state lives on its `Connection`: a successful `create` on the
authentication service logs the connection in, a `remove` logs it out (see `login`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.http import HttpResponseBase
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from ...client import telemetry
from ...client.telemetry import TRACE_QUERY_KEY
from ...contract import method_arguments
from ...errors import BadRequest, GeneralError, NotFound
from ..pipeline.calls import CallContext, attach, run_call
from ..pipeline.errors import retry_after, to_feathers_error
from ..pipeline.params import Params
from ..registry import services
from . import login
from .connection import Connection
from .workers import CallWorkers

__all__ = [
    "PROVIDER",
    "Call",
    "Failed",
    "call_service",
    "dispatch",
    "parse_call",
]

#: `params.provider` of socket calls.
PROVIDER = "socketio"


@dataclasses.dataclass(frozen=True)
class Call:
    """A socket call, its arguments in place: what `parse_call` reads from an event."""

    method: str
    path: str
    id: Any = None
    data: Any = None
    query: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: Whether the event carried data (a missing argument is JavaScript's `undefined`).
    has_data: bool = False
    #: The trace headers the call carried (the query's `$trace`, taken out of it).
    trace: Mapping[str, str] = dataclasses.field(default_factory=dict)


def parse_call(method: str, args: Sequence[Any]) -> Call:
    """
    Read an event's arguments as Feathers' socket transport does.

    Raises NotFound for a path that is not a string, BadRequest for too many arguments, an id
    that is neither a string nor a number, a query that is not an object, or binary data
    (socket.io's attachments: Feathers speaks JSON only).
    """
    if not args or not isinstance(args[0], str):
        raise NotFound("Invalid service path")
    if _has_binary(args):
        raise BadRequest("Binary attachments are not supported: send JSON")
    path, arguments = args[0], list(args[1:])
    names = method_arguments(method)
    if len(arguments) > len(names):
        raise BadRequest(f"Too many arguments for '{method}' method")
    has_data = "data" in names and len(arguments) > names.index("data")
    values = dict(zip(names, arguments + [None] * (len(names) - len(arguments)), strict=True))
    query = values["params"]
    if query is None:
        query = {}
    elif not isinstance(query, Mapping):
        raise BadRequest("The query (params.query) must be an object")
    id = _id_value(values["id"]) if "id" in names else None
    data = values.get("data")
    query = dict(query)
    trace = telemetry.call_trace(query) if TRACE_QUERY_KEY in query else {}
    return Call(method, path, id, data, query, has_data, trace)


async def dispatch(
    connection: Connection,
    method: str,
    args: Sequence[Any],
    workers: CallWorkers | None = None,
    slots: asyncio.Semaphore | None = None,
) -> tuple[Any, ...]:
    """
    Run the call an event names and return its ack: `(None, result)` or `(error,)`. The call
    runs in a thread of `workers` once one of the connection's `slots` is free.
    """
    try:
        call = parse_call(method, args)
    except Exception as exc:
        return (to_feathers_error(exc).to_json(),)
    if workers is None:
        return await sync_to_async(_answer, thread_sensitive=False)(connection, call)
    return await workers.run(slots, _answer, connection, call)


def _answer(connection: Connection, call: Call) -> tuple[Any, ...]:
    close_old_connections()
    try:
        with telemetry.server_span(call.path, call.method, call.trace) as span:
            try:
                result = call_service(connection, call)
            except Failed as failure:
                telemetry.failed_span(span, failure.error)
                return (failure.error,)
    finally:
        close_old_connections()
    return (None, result)


class Failed(Exception):
    """A call that was answered with an error (the error JSON of the service's handler)."""

    def __init__(self, error: Any) -> None:
        super().__init__(error)
        self.error = error


def call_service(connection: Connection, call: Call) -> Any:
    """
    Run `call` through the call pipeline, as `connection`, and return the result.

    The service's DRF authentication classes run on a request carrying the connection's
    credentials, so every call checks the login again. Errors are answered by the service's
    exception handler and raised as `Failed` with the error JSON. A login or logout on the
    authentication service updates `connection`.
    """
    match = services.router.match(call.path.strip("/").split("/"))
    if match is None:
        raise Failed(NotFound(f"Service '{call.path}' not found").to_json())
    route = match.route
    service = route.service_class(path=route.path, **route.options)
    used = connection.authentication
    params = Params(
        query=dict(call.query),
        route=dict(match.params),
        headers={**connection.headers, **call.trace},
        provider=PROVIDER,
        connection=connection,
    )
    context = attach(CallContext(service, call.method, id=call.id, data=call.data, params=params))
    try:
        result = _sendable(run_call(context))
        login.after_call(connection, service, call.method, result, context.request)
    except Exception as exc:
        response = service.handle_exception(exc)
        _note_lost_login(connection, used, context.request)
        raise Failed(_with_retry_after(response.data, retry_after(exc))) from None
    _note_lost_login(connection, used, context.request)
    return result


def _note_lost_login(connection: Connection, used: Any, request: Any) -> None:
    if login.login_lost(connection, used, request):
        connection.lost_login = used


def _with_retry_after(error: Any, seconds: int | None) -> Any:
    """
    The error JSON of a failed call, with the seconds after which it may be sent again (a
    429, a busy database's 503; `exceptions.retry_after`, read from the error itself) as
    `data.retryAfter`: a socket carries no headers.
    """
    if seconds is None or not isinstance(error, dict):
        return error
    data = error.get("data")
    if data is None:
        data = {}
    if isinstance(data, dict):
        error = {**error, "data": {"retryAfter": seconds, **data}}
    return error


def _sendable(result: Any) -> Any:
    """The JSON a method result is sent as; raises for a value JSON cannot hold."""
    if isinstance(result, Response):
        result = result.data
    elif isinstance(result, HttpResponseBase):
        raise GeneralError("The method returned an HTTP response, which a socket cannot carry")
    try:
        json.dumps(result, cls=JSONEncoder)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"The result cannot be sent as JSON: {exc}") from exc
    return result


def _has_binary(value: Any) -> bool:
    """Whether decoded socket.io arguments hold bytes anywhere (iteratively: any depth)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (bytes, bytearray)):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def _id_value(value: Any) -> str | None:
    """An id as the REST transport gives it to services: a string, or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() else repr(value)
    raise BadRequest("The id must be a string or a number")

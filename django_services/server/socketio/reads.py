"""
The read rule of service events: a connection gets an event only if its user may read it.

    class TodoService(ModelService):
        event_readers = "per_user"     # the default: `get_queryset` depends on the user
        event_readers = "shared"       # every user who may `get` reads the same records
        event_readers = "unchecked"    # the channels alone decide (the service opts out)

On top of the channels a publisher chooses, an event reaches a connection only if the
connection's user could `get` the record through the same service: the `get` method is
exposed, its permission classes allow it (`has_permission`), the record is among the user's
`get_queryset()` and the object permissions allow it (`has_object_permission`).

The question is asked once per event in each process that holds recipients, and once per
distinct user among them (anonymous connections are one user), never per connection:

* `"per_user"`: one query for every user, their querysets combined (`read_query`); a
  service that is not a model service gets one `get` a user;
* `"shared"`: one query per event, whoever listens; then the permissions of each user;
* `removed`: the record is gone when the event leaves, so it cannot be read again: it reaches
  the user who removed it (`"per_user"`), or every user the `get` permission allows
  (`"shared"`, since every reader read the same records);
* a custom event (`self.emit(name, data)`) whose data carries the service's id field is
  checked as that record; other data is not a record: it needs the `get` permission only.

`rule(event)` (in the thread that committed) describes the check as JSON, so that it crosses
processes with the event; `readable(rule, users)` answers it where the connections are: in the
committing thread for the process's own sockets (`allowed()`), in a worker thread of each
other process (`recipients()`), where the record is read as it is when the event arrives: one
removed or no longer readable by then is sent to nobody there.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from rest_framework import exceptions as drf_exceptions

from ..database_errors import is_transient, retried_once
from ..pipeline.events import ServiceEvent
from .read_query import allowed_call, read_in_one_query

__all__ = [
    "EVENT_READERS",
    "allowed",
    "emit_message",
    "readable",
    "readable_each",
    "recipients",
    "rule",
    "user_groups",
    "user_key",
]

logger = logging.getLogger("django_services.server")

#: The values of a service's `event_readers`.
EVENT_READERS = ("per_user", "shared", "unchecked")

_STANDARD = ("created", "updated", "patched", "removed")


def rule(event: ServiceEvent) -> dict[str, Any] | None:
    """
    The read check of `event`, as JSON: None when its service opts out (`"unchecked"`).

    Raises ValueError for an `event_readers` that is none of `EVENT_READERS`.
    """
    context = event.context
    service = getattr(context, "service", None)
    readers = getattr(service, "event_readers", "per_user")
    if readers not in EVENT_READERS:
        raise ValueError(
            f"{type(service).__name__}.event_readers is {readers!r}: one of "
            f"{', '.join(map(repr, EVENT_READERS))}."
        )
    if readers == "unchecked":
        return None
    params = getattr(context, "params", None)
    check: dict[str, Any] = {
        "path": event.path,
        "shared": readers == "shared",
        "route": dict(getattr(params, "route", None) or {}),
    }
    id_field = _id_field(service)
    data = event.data
    has_id = isinstance(data, Mapping) and id_field in data
    if event.event == "removed":
        # Gone once the event leaves: the one user known to have read it removed it.
        remover = _key(getattr(params, "user", None))
        check["readers"] = [remover] if remover is not None else []
    elif has_id:
        check["id"] = data[id_field]
    elif event.event in _STANDARD:
        # A record without its id can not be looked up: nobody is known to read it.
        check["readers"] = []
    return check


def readable(check: Mapping[str, Any], users: Sequence[Any]) -> list[bool]:
    """
    Whether each of `users` (None: anonymous) may read the event `check` describes.

    Runs Django code: call it from a thread, not the event loop. Any failure means unreadable,
    but a transient database error (a lost connection, a lock), which is raised: it says
    nothing of the users' rights, and the check is to be made again.
    """
    try:
        return _readable(check, users)
    except Exception as exc:
        if is_transient(exc):
            raise
        logger.exception("The read check of an event of %r failed.", check.get("path"))
        return [False] * len(users)


def _readable(check: Mapping[str, Any], users: Sequence[Any]) -> list[bool]:
    from ..registry import services

    route = services.get_route(str(check["path"]))
    if "readers" in check:
        known = set(check["readers"])
        allowed = [_may_get(route, user, check) for user in users]
        if check["shared"]:
            return allowed
        return [ok and _key(user) in known for ok, user in zip(allowed, users, strict=True)]
    if "id" not in check:
        return [_may_get(route, user, check) for user in users]
    if check["shared"]:
        instance = _shared_instance(route, check)
        if instance is _MISSING:
            return [False] * len(users)
        return [_may_read_instance(route, user, check, instance) for user in users]
    if hasattr(route.service_class, "get_instance"):
        return _read_in_one_query(route, users, check)
    return [_may_read(route, user, check) for user in users]


def _read_in_one_query(route: Any, users: Sequence[Any], check: Mapping[str, Any]) -> list[bool]:
    """A model service's record, for every user allowed `get`: one query (`read_query`)."""
    calls = []
    for index, user in enumerate(users):
        service, _, request = _call(route, user, check)
        if allowed_call(functools.partial(_check_method, service, request)):
            calls.append((index, service, request))
    found = read_in_one_query(calls, check["id"])
    if found is None:
        return [_may_read(route, user, check) for user in users]
    return [index in found for index in range(len(users))]


_MISSING: Any = object()


def _key(user: Any) -> Any:
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


def _call(route: Any, user: Any, check: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """A fresh service instance in a `get` call by `user`: (service, params, request)."""
    from ..pipeline.call_request import build_request
    from ..pipeline.calls import CallContext, attach
    from ..pipeline.params import Params

    service = route.instance()
    params = Params(provider="socketio", user=user, route=dict(check["route"]))
    context = CallContext(service, "get", id=check.get("id"), params=params)
    context.request = build_request(service, "get", route.path, params, None)
    attach(context)
    return service, params, context.request


def _may_get(route: Any, user: Any, check: Mapping[str, Any]) -> bool:
    """Whether `user` may call `get` at all: exposed, and its permission classes allow it."""
    service, _, request = _call(route, user, check)
    return allowed_call(lambda: _check_method(service, request))


def _may_read(route: Any, user: Any, check: Mapping[str, Any]) -> bool:
    """Whether `user` may `get` the record: its permissions, queryset and object permissions."""
    service, params, request = _call(route, user, check)

    def read() -> None:
        _check_method(service, request)
        service._calling = True
        try:
            if hasattr(service, "get_instance"):
                service._prepare_query(params)
                service.get_instance(check["id"])
            else:
                service.get(check["id"], params)
        finally:
            service._calling = False

    return allowed_call(read)


def _shared_instance(route: Any, check: Mapping[str, Any]) -> Any:
    """The record, read once for every user (`"shared"`): an internal `get`, no permission."""
    from ..pipeline.calls import CallContext, attach
    from ..pipeline.params import Params

    service = route.instance()
    params = Params(route=dict(check["route"]))
    attach(CallContext(service, "get", id=check["id"], params=params))
    found: list[Any] = []

    def read() -> None:
        service._calling = True
        try:
            if hasattr(service, "get_instance"):
                service._prepare_query(params)
                found.append(service.get_instance(check["id"]))
            else:
                service.get(check["id"], params)
                found.append(None)
        finally:
            service._calling = False

    return found[0] if allowed_call(read) else _MISSING


def _may_read_instance(route: Any, user: Any, check: Mapping[str, Any], instance: Any) -> bool:
    service, _, request = _call(route, user, check)

    def read() -> None:
        _check_method(service, request)
        if instance is not None:
            service.check_object_permissions(request, instance)

    return allowed_call(read)


def _check_method(service: Any, request: Any) -> None:
    if "get" not in service.get_methods():
        raise drf_exceptions.MethodNotAllowed("GET")
    service.check_permissions(request)


def _id_field(service: Any) -> str:
    id_field = getattr(service, "_id_field", None)
    return str(id_field()) if callable(id_field) else "id"


def user_key(connection: Any) -> Any:
    """What groups connections by user: the user's pk, or None for anonymous ones."""
    if connection is None or not connection.is_authenticated:
        return None
    return _key(connection.user)


def user_groups(
    sids: Sequence[str], connections: Mapping[str, Any]
) -> dict[Any, tuple[Any, list[str]]]:
    """The sockets `sids` by user: `{user key: (user, [sid, ...])}`, anonymous ones as one."""
    groups: dict[Any, tuple[Any, list[str]]] = {}
    for sid in sids:
        connection = connections.get(sid)
        if connection is None:
            continue
        key = user_key(connection)
        user = connection.user if key is not None else None
        groups.setdefault(key, (user, []))[1].append(sid)
    return groups


def allowed(
    check: Mapping[str, Any], groups: Mapping[Any, tuple[Any, list[str]]]
) -> dict[str, Any]:
    """`{sid: user key}` of the sockets of `groups` whose user may read: one check a user."""
    return {sid: key for sid, (key, ok) in verdicts(check, groups).items() if ok}


def verdicts(
    check: Mapping[str, Any], groups: Mapping[Any, tuple[Any, list[str]]]
) -> dict[str, tuple[Any, bool]]:
    """`{sid: (user key, may read)}` of the sockets of `groups`: one check a user."""
    keys = list(groups)
    answers = readable(check, [groups[key][0] for key in keys])
    return {
        sid: (key, bool(ok))
        for key, ok in zip(keys, answers, strict=True)
        for sid in groups[key][1]
    }


async def recipients(
    check: Mapping[str, Any],
    sids: Sequence[str],
    connections: Mapping[str, Any],
    run: Callable[..., Awaitable[Any]],
    checked: Mapping[str, tuple[Any, bool]] | None = None,
) -> list[str]:
    """
    The sockets among `sids` whose user may read the event. `checked` (`verdicts()`, made
    before the event was sent) answers for the sockets it names whose user is still the one
    checked; `run` runs the check in a thread for the others (a socket that joined or logged
    in since), once for their distinct users.
    """
    known = checked or {}
    stale = [
        sid for sid in sids if sid not in known or known[sid][0] != user_key(connections.get(sid))
    ]
    fresh: Mapping[str, tuple[Any, bool]] = {}
    if stale:
        groups = user_groups(stale, connections)
        if groups:
            fresh = await run(_verdicts_in_thread, check, groups)
    readers = []
    for sid in sids:
        verdict = fresh.get(sid) or known.get(sid)
        if verdict is not None and verdict[1] and verdict[0] == user_key(connections.get(sid)):
            readers.append(sid)
    return readers


def _verdicts_in_thread(
    check: Mapping[str, Any], groups: Mapping[Any, tuple[Any, list[str]]]
) -> dict[str, tuple[Any, bool]]:
    return retried_once(verdicts, check, groups)


def readable_each(checks: Sequence[Mapping[str, Any]], user: Any) -> list[bool]:
    """
    Whether `user` (None: anonymous) may read each event of `checks`: a replay's, in one
    worker thread. Once more on a new connection after a transient database error.
    """
    return retried_once(_readable_each, checks, user)


def _readable_each(checks: Sequence[Mapping[str, Any]], user: Any) -> list[bool]:
    return [readable(check, [user])[0] for check in checks]


def emit_message(
    event: str, data: Any, namespace: str, room: Any, read: Mapping[str, Any]
) -> dict[str, Any]:
    """
    python-socketio's pub/sub message of an emit (JSON data, no callback), with its read rule:
    what `RedisManager` and the write-only emitter publish.
    """
    return {
        "method": "emit",
        "event": event,
        "data": [data],
        "binary": False,
        "namespace": namespace,
        "room": room,
        "skip_sid": None,
        "callback": None,
        "read": dict(read),
    }

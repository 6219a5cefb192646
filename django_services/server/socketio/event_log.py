"""
The event log: each service event a publisher sends, written with the write that causes it.

    DJANGO_SERVICES = {
        "SOCKETIO_PUBLISHER": "chat.realtime.Publisher",
        "SOCKETIO_RECOVERY": {"WINDOW": 120, "MAX_EVENTS": 100_000},
    }

When a write schedules its events (`events.schedule_events`), still inside its transaction,
the publisher chooses their channels and the read rule is described (`reads.rule`); both are
inserted with the event as it is sent, one INSERT per call, into `LoggedEvent`: the statement
Django's insert compiler makes for the log's table, made once per database and number of rows,
with the values each field adapts, in the transaction the call holds (no savepoint or
transaction of its own: one statement is atomic by itself). Its JSON columns are text
(`JSONTextField`), encoded once here, which the database neither checks nor parses. A
rolled-back write logs nothing; a committed one has its events logged, whatever becomes of the
process afterwards. The id of a row is the event's offset. The live send after commit uses the
channels chosen here, so the publisher is asked once per event.

`prune()` keeps the last `WINDOW` seconds and at most `MAX_EVENTS` rows; it runs now and then
after a commit, and as `manage.py prune_events`.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import logging
import threading
from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field
from django.db.models.sql import InsertQuery

from ... import clock
from ...conf import services_settings
from ..pipeline.events import ServiceEvent
from . import reads
from .channels import Channel, get_publisher, resolve_channels

__all__ = [
    "Entry",
    "channels_from_json",
    "channels_json",
    "logged_message",
    "prune",
    "prune_now_and_then",
    "recovery_setting",
    "write",
]

logger = logging.getLogger("django_services.server")

_lock = threading.Lock()
#: The `clock.time()` from which the next `prune_now_and_then()` prunes.
_next_prune: float | None = None


@dataclasses.dataclass(frozen=True)
class Entry:
    """What the log holds of an event: its offset (None: not logged), channels, read rule."""

    offset: int | None
    channels: list[Channel]
    read: dict[str, Any] | None = None


def recovery_setting(name: str) -> Any:
    """`DJANGO_SERVICES["SOCKETIO_RECOVERY"][name]`."""
    return services_settings.SOCKETIO_RECOVERY[name]


def channels_json(channels: Sequence[Channel]) -> list[dict[str, Any]]:
    """The channels as the log stores them: `{"names": [...]}`, with `"data"` when sent any."""
    stored: list[dict[str, Any]] = []
    for item in channels:
        entry: dict[str, Any] = {"names": list(item.names)}
        if item.has_data:
            entry["data"] = item.data
        stored.append(entry)
    return stored


def channels_from_json(stored: Sequence[dict[str, Any]]) -> list[Channel]:
    """The channels `channels_json()` stored."""
    return [
        Channel(tuple(item["names"]), item["data"])
        if "data" in item
        else Channel(tuple(item["names"]))
        for item in stored
    ]


def logged_message(
    offset: int, name: str, data: Any, channels: Sequence[Channel], read: Any
) -> dict[str, Any]:
    """The pub/sub message of a logged event: the whole event, its offset and channels."""
    return {
        "method": "emit",
        "event": name,
        "data": [data],
        "offset": offset,
        "channels": channels_json(channels),
        "read": read,
    }


def write(events: list[ServiceEvent], using: str | None) -> list[ServiceEvent]:
    """
    Log `events` in the transaction open on `using` (at once in autocommit) and return them
    with their `entry`; unchanged without a publisher. An event whose channels or read rule
    cannot be chosen is logged as an error and sent to nobody.
    """
    publisher = get_publisher()
    if publisher is None:
        return events
    now = clock.now()
    rows: list[tuple[Any, ...]] = []
    chosen: list[tuple[ServiceEvent, list[Channel], Any, int | None]] = []
    for event in events:
        try:
            channels = resolve_channels(publisher, event)
            read = reads.rule(event) if channels else None
        except Exception:
            logger.exception(
                "The channels of the %r event of the service %r could not be chosen.",
                event.event,
                event.path,
            )
            chosen.append((event, [], None, None))
            continue
        index = None
        if channels:
            index = len(rows)
            rows.append(
                (now, event.path or "", event.event, event.data, channels_json(channels), read)
            )
        chosen.append((event, channels, read, index))
    offsets = _insert(rows, using or DEFAULT_DB_ALIAS) if rows else []
    return [
        ServiceEvent(
            event.path,
            event.event,
            event.data,
            event.context,
            Entry(None if index is None else offsets[index], channels, read),
        )
        for event, channels, read, index in chosen
    ]


#: The columns `write()` fills, in the order of its rows' values.
_COLUMNS = ("logged_at", "path", "event", "data", "channels", "read")


def _insert(rows: list[tuple[Any, ...]], using: str) -> list[int]:
    """
    Insert `rows` (values of `_COLUMNS`) and return their ids, in order: one row by the
    statement `_statement()` keeps, several by `bulk_create` (whose statement's shape
    depends on the values: PostgreSQL's `UNNEST` of arrays).
    """
    connection = connections[using]
    sql, fields = _statement(using, connection.vendor) if len(rows) == 1 else (None, ())
    if sql is None:
        from ...models import LoggedEvent

        objects = [LoggedEvent(**dict(zip(_COLUMNS, row, strict=True))) for row in rows]
        LoggedEvent.objects.using(using).bulk_create(objects)
        return [item.pk for item in objects]
    logged_at, path, event, *documents = rows[0]
    # The values as the fields would adapt them, without `get_db_prep_save()`'s generic
    # steps: its `hasattr(value, "as_sql")` raises and formats an AttributeError per column.
    params = [
        connection.ops.adapt_datetimefield_value(logged_at),
        path,
        event,
        *(
            field.get_prep_value(document)
            for field, document in zip(fields[3:], documents, strict=True)
        ),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        returned = cursor.fetchone()
    return [returned[0]]


@functools.lru_cache(maxsize=16)
def _statement(using: str, vendor: str) -> tuple[str | None, tuple[Field, ...]]:
    """
    The `INSERT` of one row of `_COLUMNS` that returns its id, as Django's insert compiler
    writes it for the database `using`, and the fields whose values it takes, one
    placeholder each; None for a database whose `INSERT` cannot return the id it made
    (`bulk_create` then, which asks the database afterwards).
    """
    from ...models import LoggedEvent

    meta = LoggedEvent._meta
    by_name = {field.name: field for field in meta.concrete_fields}
    fields = tuple(by_name[name] for name in _COLUMNS)
    connection = connections[using]
    if not connection.features.can_return_columns_from_insert:
        return None, fields
    query = InsertQuery(LoggedEvent)
    query.insert_values(fields, [LoggedEvent()])
    compiler = query.get_compiler(using=using)
    compiler.returning_fields = [meta.pk]
    statements = compiler.as_sql()
    if len(statements) != 1 or compiler.returning_params or len(statements[0][1]) != len(fields):
        return None, fields
    return statements[0][0], fields


def prune(using: str | None = None) -> int:
    """
    Delete the logged events older than `SOCKETIO_RECOVERY["WINDOW"]` seconds and those
    beyond the newest `SOCKETIO_RECOVERY["MAX_EVENTS"]`, always from the oldest id up (so
    that what is left starts right after what a reconnect may ask for) and never the newest
    one, and the sessions of connections lost longer ago than the window; return how many
    events were deleted.
    """
    from django.db.models import Max

    from ...models import LoggedEvent
    from . import sessions

    rows = LoggedEvent.objects.using(using or DEFAULT_DB_ALIAS)
    oldest = clock.now() - datetime.timedelta(seconds=recovery_setting("WINDOW"))
    through = rows.filter(logged_at__lt=oldest).aggregate(through=Max("id"))["through"] or 0
    limit = int(recovery_setting("MAX_EVENTS"))
    beyond = list(rows.order_by("-id").values_list("id", flat=True)[limit : limit + 1])
    if beyond:
        through = max(through, beyond[0])
    # The newest event stays, however old: the log always says where it ends, which a process
    # that starts and a client recovering with its pid alone measure from.
    newest = rows.aggregate(newest=Max("id"))["newest"] or 0
    through = min(through, newest - 1)
    deleted = 0
    if through > 0:
        deleted, _ = rows.filter(id__lte=through).delete()
    sessions.prune(using)
    return deleted


def prune_now_and_then(using: str | None = None) -> None:
    """`prune()` at most once a tenth of the window in this process (after a commit)."""
    global _next_prune
    now = clock.time()
    with _lock:
        interval = max(float(recovery_setting("WINDOW")) / 10, 1.0)
        # Not yet due, unless the clock went back (another clock put in): then prune now.
        if _next_prune is not None and now < _next_prune <= now + interval:
            return
        _next_prune = now + interval
    try:
        prune(using)
    except Exception:
        logger.exception("The event log could not be pruned.")

"""
The sessions of socket.io connections, kept in the database so that any process recovers them.

    pid = new_pid()                              # the private id the client keeps
    save(pid, connection, channels, offsets)     # at connect, at each login and logout
    save(pid, connection, channels, lost=True)   # when the connection is lost
    saved = load(pid)                            # a reconnect: None when too old or unknown
    missed_rows(client_offsets, delivered)       # the events the reconnect is owed

A session is stored under the SHA-256 hash of its private id (the id is a credential: whoever
presents it recovers the session), with what a recovery restores: the channels, the login and
the offsets of the events it had been sent when it connected (for a client that received none
since). A connection lost less than `SOCKETIO_RECOVERY["WINDOW"]` seconds ago is recovered; a
session whose process died with it (never marked lost) is recovered while the event log still
holds its offset. Every function here reads or writes the database: run them in a thread.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import secrets
from typing import Any

from django.db import close_old_connections
from django.db.models import Min, Q

from ... import clock
from ...conf import services_settings
from .offsets import Offsets

__all__ = [
    "STALE_AFTER",
    "Saved",
    "forget",
    "load",
    "log_holds",
    "missed_rows",
    "new_pid",
    "prune",
    "save",
]

#: A session never marked lost (its process died) is deleted after this long.
STALE_AFTER = datetime.timedelta(days=1)


@dataclasses.dataclass(frozen=True)
class Saved:
    """A stored session: its channels, its login, the offsets it was sent when it connected."""

    offsets: str
    channels: list[str]
    subject: str | None
    authentication: dict[str, Any] | None
    session_key: str | None


def new_pid() -> str:
    """A new private id: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def _hash(pid: str) -> str:
    return hashlib.sha256(pid.encode()).hexdigest()


def subject_of(connection: Any) -> str | None:
    """The primary key of the connection's user, as text (None: anonymous)."""
    pk = getattr(connection.user, "pk", None) if connection.authentication is not None else None
    return None if pk is None else str(pk)


def save(
    pid: str,
    connection: Any,
    channels: list[str],
    offsets: Offsets | None = None,
    lost: bool = False,
) -> None:
    """Store the session `pid` of `connection` (its offsets unchanged when None)."""
    from ...models import SocketSession

    now = clock.now()
    values: dict[str, Any] = {
        "channels": channels,
        "subject": subject_of(connection),
        "authentication": connection.authentication,
        "session_key": connection.session_key,
        "seen_at": now,
        "lost_at": now if lost else None,
    }
    if offsets is not None:
        values["offsets"] = offsets.encode()
    with _connections():
        updated = SocketSession.objects.filter(pid_hash=_hash(pid)).update(**values)
        if not updated:
            values.setdefault("offsets", (offsets or Offsets()).encode())
            SocketSession.objects.update_or_create(pid_hash=_hash(pid), defaults=values)


def load(pid: str) -> Saved | None:
    """The session `pid`, unless unknown or lost longer than the window ago."""
    from ...models import SocketSession

    oldest = clock.now() - datetime.timedelta(seconds=_window())
    with _connections():
        row = SocketSession.objects.filter(pid_hash=_hash(pid)).first()
    if row is None or (row.lost_at is not None and row.lost_at < oldest):
        return None
    channels = row.channels if isinstance(row.channels, list) else []
    return Saved(
        offsets=row.offsets,
        channels=[name for name in channels if isinstance(name, str)],
        subject=row.subject,
        authentication=row.authentication if isinstance(row.authentication, dict) else None,
        session_key=row.session_key,
    )


def forget(pid: str) -> None:
    """Delete the session `pid` (a disconnect the client or the server asked for)."""
    from ...models import SocketSession

    with _connections():
        SocketSession.objects.filter(pid_hash=_hash(pid)).delete()


def log_holds(offsets: Offsets) -> bool:
    """Whether the event log still holds every event after `offsets.top` (none was pruned)."""
    from ...models import LoggedEvent

    with _connections():
        oldest = LoggedEvent.objects.aggregate(oldest=Min("id"))["oldest"]
    # The log is pruned from its oldest id up: what is left starts right after the offset.
    return oldest is None or oldest <= offsets.top + 1


def missed_rows(client: Offsets, delivered: Offsets) -> list[dict[str, Any]]:
    """
    The logged events a client sent `client` is owed, of those this process `delivered`,
    by id: one SELECT.
    """
    from ...models import LoggedEvent

    wanted = Q(id__gt=client.top)
    if client.missing:
        wanted |= Q(id__in=sorted(client.missing))
    with _connections():
        rows = LoggedEvent.objects.filter(wanted, id__lte=delivered.top).order_by("id")
        found = list(rows.values("id", "path", "event", "data", "channels", "read"))
    return [row for row in found if row["id"] in delivered and row["id"] not in client]


def prune(using: str | None = None) -> int:
    """Delete the sessions lost longer than the window ago, and those never marked lost
    for `STALE_AFTER`; return how many."""
    from ...models import SocketSession

    now = clock.now()
    oldest = now - datetime.timedelta(seconds=_window())
    rows = SocketSession.objects.using(using) if using else SocketSession.objects
    deleted, _ = rows.filter(
        Q(lost_at__lt=oldest) | Q(lost_at=None, seen_at__lt=now - STALE_AFTER)
    ).delete()
    return deleted


def _window() -> float:
    return float(services_settings.SOCKETIO_RECOVERY["WINDOW"])


class _connections:
    """Close the thread's stale database connections before and after (a worker thread)."""

    def __enter__(self) -> None:
        close_old_connections()

    def __exit__(self, *exc: object) -> None:
        close_old_connections()

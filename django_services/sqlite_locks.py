"""
Writes to an in-memory SQLite database wait for its table locks, as writes to a file wait for
its lock.

    install()     # on every new connection to an in-memory SQLite database that is shared

Django's test database on SQLite is one in-memory database shared by every connection of the
process (`cache=shared`). In a shared cache, a connection that reads a table holds a lock on
that table, and a write that meets it fails at once with "database table is locked": SQLite's
busy timeout, which makes a writer wait for a file database's lock, does not apply there. A
service's write in a test with a live server (a socket.io server tails its event log in
another thread) would then fail with `503` whenever it met such a read.

This module makes a statement that changes data, and fails on such a lock, run again until the
connection's timeout has passed, as the busy timeout would: the failed statement changed
nothing, and the transaction it belongs to goes on. Reads are left as they are: their callers
already treat a lock as transient, and a read that waited could hold up the writer it waits
for. File databases are left alone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from . import clock

__all__ = ["install", "wait_for_table_locks"]

#: SQLITE_LOCKED: a conflict with another connection of the same shared cache.
_SQLITE_LOCKED = 6
#: Seconds a write waits when the database has no `timeout` option (Python's default).
_DEFAULT_TIMEOUT = 5.0
_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.02


def install(sender: Any = None, connection: Any = None, **kwargs: Any) -> None:
    """
    The `connection_created` receiver: have the writes of `connection` wait for table locks,
    when it is a connection to an in-memory SQLite database whose cache is shared.
    """
    if connection is None or connection.vendor != "sqlite" or not _shared_cache(connection):
        return
    if wait_for_table_locks not in connection.execute_wrappers:
        connection.execute_wrappers.append(wait_for_table_locks)


def wait_for_table_locks(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """An execute wrapper: run a write again while it fails on another connection's table lock."""
    if _is_read(sql):
        return execute(sql, params, many, context)
    options = context["connection"].settings_dict.get("OPTIONS") or {}
    deadline = clock.monotonic() + float(options.get("timeout", _DEFAULT_TIMEOUT))
    pause = _FIRST_PAUSE
    while True:
        try:
            return execute(sql, params, many, context)
        except Exception as exc:
            if not _is_table_lock(exc) or clock.monotonic() + pause > deadline:
                raise
        clock.current().sleep(pause)
        pause = min(pause * 2, _LONGEST_PAUSE)


def _shared_cache(connection: Any) -> bool:
    name = str(connection.settings_dict.get("NAME") or "")
    return connection.is_in_memory_db() and "cache=shared" in name


def _is_read(sql: str) -> bool:
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")


def _is_table_lock(exc: BaseException) -> bool:
    cause = exc if isinstance(exc, sqlite3.Error) else exc.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF == _SQLITE_LOCKED
    return "database table is locked" in str(cause)

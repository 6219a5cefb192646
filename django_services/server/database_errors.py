"""
Which database errors are transient: the same request, sent again a moment later, would
likely succeed.

    is_transient(exc)     # True for a lock wait that timed out, a deadlock, a serialization
                          # failure or a lost connection
    is_duplicate(exc)     # True for an IntegrityError of a unique (or primary key) constraint
    retried_once(read, *args)   # in a worker thread: once more, on a new connection, if transient

The exception handler answers them `503 Unavailable` with `Retry-After`; the transaction they
broke is rolled back, so nothing of the request was written. Other database errors (a syntax
error, a missing table, a constraint) are bugs or conflicts, and stay what they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import Error, InterfaceError, close_old_connections, connections

__all__ = ["RETRY_AFTER", "is_duplicate", "is_transient", "retried_once"]

_T = TypeVar("_T")

#: Seconds a client is asked to wait before sending the request again.
RETRY_AFTER = 1

#: PostgreSQL SQLSTATEs: serialization failure, deadlock, lock timeout, the server shutting
#: down or starting up, too many connections.
_POSTGRES_STATES = frozenset({"40001", "40P01", "55P03", "57P01", "57P02", "57P03", "53300"})
#: MySQL error numbers: lock wait timeout, deadlock, server gone away, connection lost.
_MYSQL_CODES = frozenset({1205, 1213, 2006, 2013})
#: SQLite primary result codes: SQLITE_BUSY, SQLITE_LOCKED.
_SQLITE_CODES = frozenset({5, 6})
_SQLITE_MESSAGES = ("database is locked", "database table is locked", "database schema is locked")


#: PostgreSQL SQLSTATEs of a duplicate: unique violation, exclusion violation.
_POSTGRES_DUPLICATES = frozenset({"23505", "23P01"})
#: SQLite extended result codes: SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY.
_SQLITE_DUPLICATES = frozenset({2067, 1555})
#: MySQL: ER_DUP_ENTRY, ER_DUP_KEY.
_MYSQL_DUPLICATES = frozenset({1062, 1022})


def is_duplicate(exc: BaseException) -> bool:
    """
    Whether `exc`, an IntegrityError, comes from a unique or primary key constraint (a
    conflict with an existing record), rather than NOT NULL, CHECK or a foreign key.
    """
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state:
        return state in _POSTGRES_DUPLICATES
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code in _SQLITE_DUPLICATES
    args: tuple[Any, ...] = getattr(cause, "args", ())
    if args and isinstance(args[0], int):
        return args[0] in _MYSQL_DUPLICATES
    text = str(cause if cause is not None else exc).lower()
    return "unique" in text or "duplicate" in text


def is_transient(exc: BaseException) -> bool:
    """Whether `exc`, raised by Django's database layer, is worth retrying."""
    if isinstance(exc, InterfaceError):
        return True  # the connection was closed under the request
    if not isinstance(exc, Error):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state:
        return state in _POSTGRES_STATES or state.startswith("08")  # 08: connection exceptions
    module = type(cause).__module__ or ""
    if module.startswith("psycopg"):
        # No SQLSTATE: the client library lost the server (closed, reset, timed out).
        return any(cls.__name__ == "OperationalError" for cls in type(cause).__mro__)
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _SQLITE_CODES
    if module.startswith("sqlite3"):
        return any(message in str(cause) for message in _SQLITE_MESSAGES)
    args: tuple[Any, ...] = getattr(cause, "args", ())
    return bool(args) and isinstance(args[0], int) and args[0] in _MYSQL_CODES


def retried_once(read: Callable[..., _T], *args: Any) -> _T:
    """
    `read(*args)` in a thread of its own (a worker's), between closing the thread's connections
    that are too old or broken, and once more on new connections after a transient error.

    A connection the database ended (a restart, a failover, an administrator) is found dead at
    its first query; a second transient error is raised, for the caller to try again later.
    """
    close_old_connections()
    try:
        try:
            return read(*args)
        except Exception as exc:
            if not is_transient(exc):
                raise
            connections.close_all()
            return read(*args)
    finally:
        close_old_connections()

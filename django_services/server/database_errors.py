"""
Which database errors are transient: the same request, sent again a moment later, would
likely succeed.

    is_transient(exc)     # True for a lock wait that timed out, a deadlock, a serialization
                          # failure or a lost connection

The exception handler answers them `503 Unavailable` with `Retry-After`; the transaction they
broke is rolled back, so nothing of the request was written. Other database errors (a syntax
error, a missing table, a constraint) are bugs or conflicts, and stay what they are.
"""

from __future__ import annotations

from django.db import Error, InterfaceError

__all__ = ["RETRY_AFTER", "is_transient"]

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
    args = getattr(cause, "args", ())
    return bool(args) and isinstance(args[0], int) and args[0] in _MYSQL_CODES

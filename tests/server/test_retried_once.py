"""
`retried_once`: a read in a worker thread that meets a transient database error (a connection
the database ended, a locked table) is made once more on a new connection; a second one, or an
error that is not transient, is raised.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from django.db import OperationalError, ProgrammingError, connection, connections

from django_services.server.database_errors import is_transient, retried_once
from tests.other_connections import in_a_thread, transaction_held, write_to

pytestmark = pytest.mark.django_db(transaction=True)


@contextlib.contextmanager
def outage() -> Iterator[None]:
    """
    While open, the database fails this thread's next read of the notes: PostgreSQL ends the
    thread's connection; SQLite's shared cache fails the read of a table another thread writes.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        in_a_thread(_terminate, pid)
        yield
        return
    with transaction_held(write_to("testapp_note")):
        yield


def _terminate(pid: int) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        connections.close_all()


def count_notes() -> int:
    from tests.testapp.models import Note

    return Note.objects.count()


def test_a_read_that_meets_a_transient_error_is_made_once_more_on_a_new_connection():
    attempts: list[int] = []

    def read() -> int:
        attempts.append(1)
        if len(attempts) == 1:
            with outage():
                return count_notes()
        return count_notes()

    assert in_a_thread(retried_once, read) == 0
    assert len(attempts) == 2


def test_a_second_transient_error_is_raised():
    attempts: list[int] = []

    def read() -> int:
        attempts.append(1)
        with outage():
            return count_notes()

    with pytest.raises(OperationalError) as raised:
        in_a_thread(retried_once, read)
    assert is_transient(raised.value)
    assert len(attempts) == 2


def test_an_error_that_is_not_transient_is_raised_at_once():
    attempts: list[int] = []

    def read() -> None:
        attempts.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")

    with pytest.raises((OperationalError, ProgrammingError)):
        in_a_thread(retried_once, read)
    assert len(attempts) == 1

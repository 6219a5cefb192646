"""
`is_transient` on errors the databases really raise, wrapped as Django wraps them: lock
timeouts, deadlocks and serialization failures are transient; a broken query or a violated
constraint is not.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import InterfaceError
from django.db.utils import DatabaseErrorWrapper

from django_services.server.database_errors import is_transient
from tests.concurrency.test_transient_errors import POSTGRES
from tests.interop.databases import conformance_database


def django_error(database: Any, action: Callable[[], Any]) -> BaseException:
    """The exception Django's database layer raises when the driver's `action` fails."""
    wrapper = DatabaseErrorWrapper(SimpleNamespace(Database=database, errors_occurred=False))
    with pytest.raises(Exception) as caught, wrapper:
        action()
    return caught.value


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Iterator[str]:
    path = str(tmp_path / "errors.sqlite3")
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
    setup.execute("INSERT INTO item VALUES (1, 'a')")
    setup.commit()
    setup.close()
    yield path


def test_sqlite_database_is_locked_is_transient(sqlite_file):
    holder = sqlite3.connect(sqlite_file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(sqlite_file, isolation_level=None, timeout=0.05)
    try:
        error = django_error(sqlite3, lambda: waiter.execute("BEGIN IMMEDIATE"))
    finally:
        holder.rollback()
        holder.close()
        waiter.close()
    assert "database is locked" in str(error)
    assert is_transient(error)


@pytest.mark.parametrize(
    "statement",
    ["INSERT INTO item VALUES (2, 'a')", "SELECT * FROM missing", "SELEC 1"],
)
def test_sqlite_constraint_and_query_errors_are_not_transient(sqlite_file, statement):
    connection = sqlite3.connect(sqlite_file)
    try:
        error = django_error(sqlite3, lambda: connection.execute(statement))
    finally:
        connection.close()
    assert not is_transient(error)


def test_a_closed_connection_is_transient():
    assert is_transient(InterfaceError("connection already closed"))
    assert not is_transient(ValueError("not a database error"))


postgres_only = pytest.mark.skipif(not POSTGRES, reason="needs PostgreSQL")


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[Callable[[], Any]]:
    import psycopg

    with conformance_database(tmp_path, "errors") as url:
        with psycopg.connect(url, autocommit=True) as setup:
            setup.execute("CREATE TABLE item (id integer PRIMARY KEY, name text UNIQUE, note text)")
            setup.execute("INSERT INTO item VALUES (1, 'a', ''), (2, 'b', '')")
        opened: list[Any] = []

        def connect() -> Any:
            opened.append(psycopg.connect(url))
            return opened[-1]

        yield connect
        for connection in opened:
            connection.close()


@postgres_only
def test_postgres_deadlock_is_transient(postgres):
    import psycopg

    first, second = postgres(), postgres()
    first.execute("UPDATE item SET note = 'x' WHERE id = 1")
    second.execute("UPDATE item SET note = 'y' WHERE id = 2")
    errors: list[BaseException] = []

    def attempt(connection: Any, id: int) -> None:
        try:
            connection.execute(f"UPDATE item SET note = 'z' WHERE id = {id}")
        except psycopg.Error:
            wrapper = DatabaseErrorWrapper(SimpleNamespace(Database=psycopg, errors_occurred=False))
            try:
                with wrapper:
                    raise
            except Exception as exc:
                errors.append(exc)
            connection.rollback()
        else:
            connection.commit()

    threads = [
        threading.Thread(target=attempt, args=(first, 2)),
        threading.Thread(target=attempt, args=(second, 1)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    [error] = errors
    assert "deadlock detected" in str(error)
    assert is_transient(error)


@postgres_only
def test_postgres_serialization_failure_and_lock_timeout_are_transient(postgres):
    import psycopg

    first, second = postgres(), postgres()
    for connection in (first, second):
        connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        connection.execute("SELECT name FROM item WHERE id = 1").fetchall()
    first.execute("UPDATE item SET name = 'x' WHERE id = 1")
    first.commit()
    error = django_error(psycopg, lambda: second.execute("UPDATE item SET name = 'y' WHERE id = 1"))
    assert "could not serialize" in str(error)
    assert is_transient(error)
    second.rollback()

    first.execute("UPDATE item SET note = 'x' WHERE id = 2")
    second.execute("SET lock_timeout = 50")
    error = django_error(psycopg, lambda: second.execute("UPDATE item SET note = 'y' WHERE id = 2"))
    assert "lock timeout" in str(error)
    assert is_transient(error)


@postgres_only
@pytest.mark.parametrize(
    "statement",
    ["INSERT INTO item VALUES (3, 'a', '')", "SELECT * FROM missing", "SELEC 1"],
)
def test_postgres_constraint_and_query_errors_are_not_transient(postgres, statement):
    import psycopg

    connection = postgres()
    error = django_error(psycopg, lambda: connection.execute(statement))
    assert not is_transient(error)

"""
The database of the conformance server: a SQLite file, or a private PostgreSQL database.

    with conformance_database(tmp_dir) as url:     # "sqlite:////tmp/.../conformance.sqlite3"
        ...                                        # or "postgres://.../test_conformance_4242"
    with conformance_database(tmp_dir, "writes"):  # another one: ".../test_writes_4242"

With `DATABASE_URL` pointing at PostgreSQL, a database of its own (named after
`TEST_DATABASE_NAME` and this process) is created on that server and dropped afterwards, so
runs that share the server never share tables.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


@contextlib.contextmanager
def conformance_database(tmp_dir: Path, label: str = "conformance") -> Iterator[str]:
    """
    Yield the URL of an empty database for the conformance server, removed afterwards;
    databases with different `label`s can be used at the same time.
    """
    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme not in ("postgres", "postgresql", "pgsql"):
        yield f"sqlite:///{tmp_dir / f'{label}.sqlite3'}"
        return
    prefix = os.environ.get("TEST_DATABASE_NAME") or "test"
    name = f"{prefix}_{label}_{os.getpid()}"
    with _postgres(url) as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    finally:
        with _postgres(url) as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def _postgres(url: str) -> Iterator[object]:
    import dj_database_url
    import psycopg

    settings = dj_database_url.parse(url)
    connection = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    )
    try:
        with connection.cursor() as cursor:
            yield cursor
    finally:
        connection.close()

"""
Create and fill the `people` table: `rows` people, indexed on age and name, made the same way
on every engine (a seeded generator), so each variant and each engine reads the same data.

    python -m bench.data --engine sqlite --rows 100000
    python -m bench.data --engine postgresql --rows 1000000
    python -m bench.data --engine sqlite --rows 100000 --indexes single

A table already holding exactly `rows` people with the expected columns is kept; people created
by an earlier benchmark (ids above `rows`) are deleted and the id sequence is reset. SQLite
files go to bench/.data/ (git-ignored); PostgreSQL gets the database `bench` (created when
missing) with one schema per size.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import random
import sys
import time
from collections.abc import Iterator

FIRST_NAMES = (  # noqa: SIM905
    "Ada Alan Barbara Brian Claude Dennis Donald Edsger Frances Grace Guido Hedy Ivan Jean "
    "John Ken Leslie Linus Margaret Niklaus Radia Richard Robin Shafi Sophie Tim Tony Vint "
    "Whitfield Yukihiro Anders Bjarne Brendan Carol Dana Evelyn Fernando Gilles Hal Ingrid "
    "Joan Karen Larry Mary Noam Olga Peter Rasmus Susan Tom"
).split()
LAST_NAMES = (  # noqa: SIM905
    "Lovelace Turing Liskov Kernighan Shannon Ritchie Knuth Dijkstra Allen Hopper Rossum "
    "Lamarr Sutherland Sammet Backus Thompson Lamport Torvalds Hamilton Wirth Perlman "
    "Stallman Milner Goldwasser Wilson Berners-Lee Hoare Cerf Diffie Matsumoto Hejlsberg "
    "Stroustrup Eich Shaw Scott Clarke Corbato Kahn Abelson Daubechies Hellman Jones Page "
    "Keller Chomsky Naur Norvig Lerdorf Graham Moore"
).split()
SEED = 20240501
EPOCH = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
COLUMNS = ["id", "name", "age", "created"]
# Written beside the table: a table made by another version of the generator is made again.
META_TABLE = "people_meta"


def data_version(rows: int) -> str:
    """A digest of everything the generated rows depend on."""
    source = repr((SEED, EPOCH, FIRST_NAMES, LAST_NAMES, COLUMNS, rows))
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def people(rows: int) -> Iterator[tuple[int, str, int, datetime.datetime]]:
    """The rows of the table, the same for a given count on every engine and every run."""
    generator = random.Random(SEED)
    choice, randrange = generator.choice, generator.randrange
    for pk in range(1, rows + 1):
        name = f"{choice(FIRST_NAMES)} {choice(LAST_NAMES)}"
        yield pk, name, randrange(100), EPOCH + datetime.timedelta(seconds=pk * 37)


def sample_name() -> str:
    """A name that matches about one row in 2,500 (the selective filter of the benchmarks)."""
    return f"{FIRST_NAMES[0]} {LAST_NAMES[0]}"


def ensure_postgres_database() -> None:
    """Create the PostgreSQL database and the schema of this process's table size."""
    import psycopg

    from .databases import postgres_params, postgres_schema

    params = postgres_params()
    dbname = params.pop("dbname")
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [dbname]).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{dbname}"')
    schema = postgres_schema(int(os.environ["BENCH_ROWS"]))
    with psycopg.connect(**params, dbname=dbname, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')


def table_is_ready(rows: int) -> bool:
    """Whether the table exists with the expected columns and exactly `rows` people."""
    from django.db import connection

    from .people.models import INDEX_COLUMNS, Person

    table = Person._meta.db_table
    if not {table, META_TABLE} <= set(connection.introspection.table_names()):
        return False
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {META_TABLE}")
        if cursor.fetchall() != [(data_version(rows),)]:
            return False
        columns = [
            column.name for column in connection.introspection.get_table_description(cursor, table)
        ]
        if columns != COLUMNS:
            return False
        constraints = connection.introspection.get_constraints(cursor, table)
        indexes = {
            tuple(constraint["columns"])
            for constraint in constraints.values()
            if constraint["index"] and not constraint["primary_key"]
        }
        if indexes != INDEX_COLUMNS:
            return False
        cursor.execute(f"DELETE FROM {table} WHERE id > %s", [rows])
        cursor.execute(f"SELECT COUNT(*), MAX(id) FROM {table}")
        count, highest = cursor.fetchone()
    if (count, highest) != (rows, rows):
        return False
    reset_sequence()
    vacuum()
    return True


def vacuum() -> None:
    """
    On PostgreSQL, VACUUM ANALYZE: the visibility map of a table in steady state lets COUNT
    use index-only scans, as autovacuum would have arranged on a live database.
    """
    from django.db import connection

    from .people.models import Person

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {Person._meta.db_table}")


def reset_sequence() -> None:
    """Make the next created person get the id after the loaded ones."""
    from django.core.management.color import no_style
    from django.db import connection

    from .people.models import Person

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [Person._meta.db_table])
        else:
            for statement in connection.ops.sequence_reset_sql(no_style(), [Person]):
                cursor.execute(statement)


def load(rows: int) -> None:
    """Drop the table, create it from the model, and fill it with `rows` people."""
    from django.db import connection

    from .people.models import Person

    table = Person._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(f"DROP TABLE IF EXISTS {META_TABLE}")
    # The indexes are created when the schema editor exits, after the rows are in.
    with connection.schema_editor() as editor:
        editor.create_model(Person)
        raw = connection.connection
        if connection.vendor == "sqlite":
            raw.executemany(
                f"INSERT INTO {table} (id, name, age, created) VALUES (?, ?, ?, ?)",
                (
                    (pk, name, age, created.strftime("%Y-%m-%d %H:%M:%S"))
                    for pk, name, age, created in people(rows)
                ),
            )
        else:
            with (
                raw.cursor() as cursor,
                cursor.copy(f"COPY {table} (id, name, age, created) FROM STDIN") as copy,
            ):
                for row in people(rows):
                    copy.write_row(row)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {META_TABLE} (version varchar(64) NOT NULL)")
        cursor.execute(f"INSERT INTO {META_TABLE} (version) VALUES (%s)", [data_version(rows)])
        cursor.execute("ANALYZE")
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA journal_mode=WAL")
    reset_sequence()
    vacuum()


def create_event_log() -> None:
    """
    Create the tables service events are logged to and socket sessions are kept in (the
    package's migrations), if missing.
    """
    from django.db import connection

    from django_services.models import LoggedEvent, SocketSession

    tables = connection.introspection.table_names()
    for model in (LoggedEvent, SocketSession):
        if model._meta.db_table not in tables:
            with connection.schema_editor() as editor:
                editor.create_model(model)


def prepare(rows: int) -> str:
    """Make the table ready; return what was done."""
    import django

    django.setup()
    create_event_log()
    if table_is_ready(rows):
        return "kept"
    started = time.perf_counter()
    load(rows)
    return f"loaded in {time.perf_counter() - started:.1f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument(
        "--indexes",
        choices=["composite", "single"],
        default=os.environ.get("BENCH_INDEXES", "composite"),
        help="(age, id) and (name, id), or the one-column indexes of db_index=True",
    )
    args = parser.parse_args(argv)
    os.environ["BENCH_ENGINE"] = args.engine
    os.environ["BENCH_ROWS"] = str(args.rows)
    os.environ["BENCH_INDEXES"] = args.indexes
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    if args.engine == "postgresql":
        ensure_postgres_database()
    else:
        from .databases import DATA_DIR

        DATA_DIR.mkdir(exist_ok=True)
    print(f"{args.engine} {args.rows} rows, {args.indexes} indexes: {prepare(args.rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

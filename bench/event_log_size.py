"""
What the recovery window holds in the database: the bytes of a logged event and of a socket
session, table and indexes together.

    python -m bench.event_log_size --events 10000 --sessions 10000
    BENCH_ENGINE=postgresql python -m bench.event_log_size

Creates `--events` people through the `people` service (in-process, with the socket
benchmark's publisher, so each create logs its `people created` event as a server does), then
saves `--sessions` socket sessions as an anonymous connection in one channel has at connect
(`server.socketio.sessions.save`), and prints the growth of each table with its indexes per row:
SQLite's `dbstat` pages, PostgreSQL's `pg_total_relation_size`. The rows are deleted at the
end. Run `python -m bench.data` (with the same `BENCH_ENGINE`) first.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import SimpleNamespace
from typing import Any

from .servers import bench_environment

ROWS = 100_000
TABLES = {"events": "django_services_loggedevent", "sessions": "django_services_socketsession"}


def table_bytes(table: str) -> int:
    """The bytes a table and its indexes (and TOAST, on PostgreSQL) take in the database."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
        else:
            cursor.execute(
                "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = %s OR name IN "
                "(SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = %s)",
                [table, table],
            )
        return int(cursor.fetchone()[0])


def checkpoint() -> None:
    """Make the sizes current: SQLite's WAL into the file, PostgreSQL's statistics."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("CHECKPOINT")
        else:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def create_people(count: int) -> dict[str, Any]:
    """Create `count` people through the service; return the last event's logged row."""
    from bench.profile import make_call
    from bench.wsgi import application
    from django_services.models import LoggedEvent

    for sequence in range(count):
        body = f'{{"name": "Ada Lovelace {sequence}", "age": {sequence % 100}}}'
        make_call(application, "POST", "/services/people", body)()
    row = LoggedEvent.objects.order_by("-id").values().first()
    return dict(row or {})


def save_sessions(count: int) -> None:
    """Save `count` sessions of anonymous connections in the publisher's one channel."""
    from bench.realtime import EVERYONE
    from django_services.models import LoggedEvent
    from django_services.server.socketio import sessions
    from django_services.server.socketio.offsets import Offsets

    # What a process that has sent events writes at connect: its own offset.
    last = LoggedEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    offsets = Offsets(top=last)
    connection = SimpleNamespace(user=None, authentication=None, session_key=None)
    for _ in range(count):
        sessions.save(sessions.new_pid(), connection, [EVERYONE], offsets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="default 10,000")
    parser.add_argument("--sessions", type=int, default=10_000, help="default 10,000")
    args = parser.parse_args(argv)
    engine = os.environ.get("BENCH_ENGINE", "sqlite")
    os.environ.update(bench_environment(engine, ROWS))
    os.environ["BENCH_SOCKETS"] = "1"
    import django

    django.setup()
    from bench.people.models import Person
    from django_services.models import LoggedEvent, SocketSession

    LoggedEvent.objects.all().delete()
    SocketSession.objects.all().delete()
    checkpoint()
    before = {name: table_bytes(table) for name, table in TABLES.items()}
    people = Person
    highest = people.objects.order_by("-id").values_list("id", flat=True).first() or 0
    try:
        row = create_people(args.events)
        save_sessions(args.sessions)
        checkpoint()
        after = {name: table_bytes(table) for name, table in TABLES.items()}
        session = SocketSession.objects.values().first()
    finally:
        people.objects.filter(id__gt=highest).delete()
        LoggedEvent.objects.all().delete()
        SocketSession.objects.all().delete()
    counts = {"events": args.events, "sessions": args.sessions}
    print(f"{engine}: bytes per row, table and indexes")
    for name in TABLES:
        grown = after[name] - before[name]
        print(f"  {name}: {grown / max(counts[name], 1):.0f} ({grown:,} for {counts[name]:,})")
    print(f"  a logged event: {row}")
    print(f"  a socket session: {session}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

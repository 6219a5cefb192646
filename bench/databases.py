"""
Where each benchmark table lives.

    database_settings("sqlite", 100_000)       # bench/.data/people-100k.sqlite3
    database_settings("postgresql", 1_000_000) # database `bench`, schema `people_1m`
    BENCH_INDEXES=single ...                   # people-100k-single.sqlite3, `people_100k_single`

PostgreSQL comes from `BENCH_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/bench`);
each table size and index shape gets its own schema, so one database holds them all.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

#: SQLite files and results; `BENCH_DATA_DIR` moves them (the benchmark's own tests do).
DATA_DIR = Path(os.environ.get("BENCH_DATA_DIR") or Path(__file__).resolve().parent / ".data")
DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/bench"
ENGINES = ("sqlite", "postgresql")
#: The index shapes of the table (see `people.models`): the recommended composite indexes
#: ending with the primary key, and the one-column indexes of `db_index=True`.
INDEX_SHAPES = ("composite", "single")


def index_shape() -> str:
    """The index shape of this process's table, from `BENCH_INDEXES` (default composite)."""
    shape = os.environ.get("BENCH_INDEXES", "composite")
    if shape not in INDEX_SHAPES:
        raise ValueError(f"BENCH_INDEXES is {shape!r}: use one of {', '.join(INDEX_SHAPES)}.")
    return shape


def _shape_suffix(indexes: str | None) -> str:
    shape = indexes or index_shape()
    return "" if shape == "composite" else f"-{shape}"


def size_label(rows: int) -> str:
    """`100k`, `1m`: how a table size is written in file and schema names."""
    if rows % 1_000_000 == 0:
        return f"{rows // 1_000_000}m"
    if rows % 1_000 == 0:
        return f"{rows // 1_000}k"
    return str(rows)


def sqlite_path(rows: int, indexes: str | None = None) -> Path:
    """The SQLite file holding `rows` people (indexes: default `BENCH_INDEXES`)."""
    return DATA_DIR / f"people-{size_label(rows)}{_shape_suffix(indexes)}.sqlite3"


def postgres_schema(rows: int, indexes: str | None = None) -> str:
    """The PostgreSQL schema holding `rows` people (indexes: default `BENCH_INDEXES`)."""
    return f"people_{size_label(rows)}{_shape_suffix(indexes).replace('-', '_')}"


def postgres_url() -> str:
    """The URL of the PostgreSQL database of the benchmarks."""
    return os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def postgres_params(url: str | None = None) -> dict[str, Any]:
    """Host, port, user, password and database name parsed from a postgres:// URL."""
    parts = urlsplit(url or postgres_url())
    return {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 5432,
        "user": unquote(parts.username or "postgres"),
        "password": unquote(parts.password or ""),
        "dbname": parts.path.lstrip("/") or "bench",
    }


def database_settings(engine: str, rows: int) -> dict[str, Any]:
    """The Django `DATABASES["default"]` of a table size on an engine."""
    if engine == "sqlite":
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(sqlite_path(rows)),
            # Persistent connections, as for PostgreSQL; the options django-feathers'
            # system check asks of a SQLite file (IMMEDIATE write transactions, a busy
            # timeout, WAL), so that concurrent writers wait for the lock instead of failing.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA synchronous=NORMAL; PRAGMA journal_mode=WAL",
            },
        }
    if engine == "postgresql":
        params = postgres_params()
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": params["dbname"],
            "USER": params["user"],
            "PASSWORD": params["password"],
            "HOST": params["host"],
            "PORT": params["port"],
            "CONN_MAX_AGE": None,
            "OPTIONS": {"options": f"-c search_path={postgres_schema(rows)}"},
        }
    raise ValueError(f"Unknown engine {engine!r}: use one of {', '.join(ENGINES)}.")

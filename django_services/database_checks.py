"""
The system check of the databases services write to, with a stable id.

    django_services.W301  a SQLite database lacks the options concurrent writes need
                          (`manage.py check --deploy`, in a project that serves services)

Without them SQLite answers "database is locked" (a 500) as soon as two requests write at the
same time: a transaction that reads before it writes cannot take the write lock while another
holds it, the default journal blocks readers during a write, and the lock is awaited only 5 s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Warning, register

__all__ = ["SQLITE_OPTIONS", "check_sqlite_options", "sqlite_option_warnings"]

#: The `OPTIONS` a SQLite database needs to serve concurrent writes: write transactions take
#: the write lock when they begin, a writer waits up to 20 s for it, readers never wait (WAL).
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL",
}

_WAL = re.compile(r"journal_mode\s*=\s*['\"]?wal\b", re.IGNORECASE)
_SQLITE = "django.db.backends.sqlite3"


@register(deploy=True)
def check_sqlite_options(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """
    Warn about each file SQLite database of `DATABASES` lacking `SQLITE_OPTIONS`, when the
    project serves services. A deployment check (`manage.py check --deploy`): in development
    one person's requests rarely write at the same time.
    """
    from .conf import services_settings
    from .server.registry import services

    if not (services_settings.SERVICES or services._registered):
        return []
    return sqlite_option_warnings(settings.DATABASES)


def sqlite_option_warnings(databases: Mapping[str, Mapping[str, Any]]) -> list[CheckMessage]:
    """A `W301` warning for each file SQLite database of `databases` lacking `SQLITE_OPTIONS`."""
    messages: list[CheckMessage] = []
    for alias, database in databases.items():
        if database.get("ENGINE") != _SQLITE or _in_memory(database.get("NAME")):
            continue
        options = database.get("OPTIONS") or {}
        missing = _missing(options)
        if missing:
            messages.append(
                Warning(
                    f"The SQLite database {alias!r} lacks {', '.join(missing)}: concurrent "
                    'writes will fail with "database is locked" (500) and may lose updates.',
                    hint=f'Set DATABASES[{alias!r}]["OPTIONS"] = {_paste(options)!r}',
                    id="django_services.W301",
                )
            )
    return messages


def _missing(options: Mapping[str, Any]) -> list[str]:
    missing = []
    if str(options.get("transaction_mode") or "").upper() not in ("IMMEDIATE", "EXCLUSIVE"):
        missing.append('"transaction_mode": "IMMEDIATE"')
    if "timeout" not in options:
        missing.append('a busy "timeout"')
    if not _WAL.search(str(options.get("init_command") or "")):
        missing.append("the WAL journal (PRAGMA journal_mode=WAL)")
    return missing


def _paste(options: Mapping[str, Any]) -> dict[str, Any]:
    """The project's options completed with the missing ones, ready to paste."""
    result = {**options}
    if str(options.get("transaction_mode") or "").upper() not in ("IMMEDIATE", "EXCLUSIVE"):
        result["transaction_mode"] = SQLITE_OPTIONS["transaction_mode"]
    result.setdefault("timeout", SQLITE_OPTIONS["timeout"])
    init_command = str(options.get("init_command") or "").strip().rstrip(";")
    if not _WAL.search(init_command):
        commands = [init_command] if init_command else []
        result["init_command"] = "; ".join([*commands, SQLITE_OPTIONS["init_command"]])
    return result


def _in_memory(name: Any) -> bool:
    text = str(name or ":memory:")
    return text == ":memory:" or "mode=memory" in text or text.startswith("file::memory:")

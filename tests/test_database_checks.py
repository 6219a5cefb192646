"""
The SQLite options check (`django_services.W301`): run as `manage.py check --deploy` runs it,
in a project of its own that serves a service, and its hint pasted back into the settings.
Plain `manage.py check`, and a project that only calls remote services, say nothing of it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from django_services.database_checks import SQLITE_OPTIONS, sqlite_option_warnings

REPOSITORY = Path(__file__).resolve().parents[1]

PROJECT = """
import json, sys
import django
from django.conf import settings
from django.core.management import call_command

settings.configure(
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework",
                    "django_services"],
    DATABASES=json.loads(sys.argv[1]),
    SECRET_KEY="a-check-project-key-that-is-long-enough-for-the-checks",
    DJANGO_SERVICES=json.loads(sys.argv[2]),
)
django.setup()
call_command("check", deploy=sys.argv[3] == "deploy")
"""

SERVING = {"SERVICES": {"echo": "tests.server.echo_services.EchoService"}}


def check(databases: dict, services: dict = SERVING, command: str = "deploy") -> str:
    """What `manage.py check [--deploy]` says about a project with these DATABASES."""
    result = subprocess.run(
        [sys.executable, "-c", PROJECT, json.dumps(databases), json.dumps(services), command],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result.stdout + result.stderr


def sqlite(path: Path, **options) -> dict:
    database = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    if options:
        database["OPTIONS"] = options
    return database


def pasted_options(output: str, alias: str = "default") -> dict:
    """The options of the hint, as a user copies them."""
    prefix = f'HINT: Set DATABASES[{alias!r}]["OPTIONS"] = '
    [line] = [line for line in output.splitlines() if prefix in line]
    return ast.literal_eval(line.split(prefix, 1)[1])


def test_a_sqlite_file_without_options_is_warned_about_and_the_hint_fixes_it(tmp_path):
    databases = {"default": sqlite(tmp_path / "db.sqlite3")}
    output = check(databases)

    assert "django_services.W301" in output
    assert "'default' lacks" in output
    assert "database is locked" in output
    options = pasted_options(output)
    assert options == SQLITE_OPTIONS

    databases["default"]["OPTIONS"] = options
    assert "W301" not in check(databases)


def test_the_hint_keeps_the_project_s_own_options(tmp_path):
    databases = {
        "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "app"},
        "archive": sqlite(
            tmp_path / "archive.sqlite3", timeout=60, init_command="PRAGMA synchronous=NORMAL;"
        ),
    }
    output = check(databases)

    assert output.count("django_services.W301") == 1
    options = pasted_options(output, "archive")
    assert options == {
        "timeout": 60,
        "init_command": "PRAGMA synchronous=NORMAL; PRAGMA journal_mode=WAL",
        "transaction_mode": "IMMEDIATE",
    }
    databases["archive"]["OPTIONS"] = options
    assert "W301" not in check(databases)


@pytest.mark.parametrize(
    ("services", "command"),
    [(SERVING, "check"), ({}, "deploy")],
    ids=["without --deploy", "a project that serves no service"],
)
def test_development_and_client_only_projects_are_not_warned(tmp_path, services, command):
    output = check({"default": sqlite(tmp_path / "db.sqlite3")}, services, command)

    assert "W301" not in output
    assert "Traceback" not in output


WAL = "PRAGMA journal_mode=WAL"


@pytest.mark.parametrize(
    ("options", "missing"),
    [
        ({"timeout": 20, "init_command": WAL}, "transaction_mode"),
        ({"transaction_mode": "DEFERRED", "timeout": 5, "init_command": WAL}, "transaction_mode"),
        ({"transaction_mode": "immediate", "init_command": "pragma journal_mode = wal"}, "timeout"),
        ({"transaction_mode": "IMMEDIATE", "timeout": 20}, "WAL"),
        ({"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA foo=WAL"}, "WAL"),
    ],
)
def test_each_missing_option_is_named(options, missing):
    [warning] = sqlite_option_warnings({"default": sqlite(Path("db.sqlite3"), **options)})
    assert warning.id == "django_services.W301"
    assert missing in warning.msg
    assert [name for name in ("transaction_mode", "timeout", "WAL") if name in warning.msg] == [
        missing
    ]


@pytest.mark.parametrize("name", [":memory:", "file:memorydb?mode=memory&cache=shared", ""])
def test_in_memory_databases_are_left_alone(name):
    assert sqlite_option_warnings({"default": sqlite(name)}) == []


def test_a_sqlite_file_with_the_options_passes():
    options = {
        "transaction_mode": "EXCLUSIVE",
        "timeout": 1,
        "init_command": "PRAGMA journal_mode=WAL",
    }
    assert sqlite_option_warnings({"default": sqlite(Path("db.sqlite3"), **options)}) == []

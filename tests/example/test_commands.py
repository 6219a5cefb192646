"""The example's management commands, each on a database of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import DEMO_EMAIL, DEMO_PASSWORD
from .project import ExampleDatabase, manage

SEEDED_MODELS = ["accounts.User", "todos", "chat", "notes"]


@pytest.fixture
def database(tmp_path: Path) -> Iterator[ExampleDatabase]:
    """A migrated database, not seeded."""
    database = ExampleDatabase.create(tmp_path, "commands")
    try:
        manage("migrate", "--noinput", database=database)
        yield database
    finally:
        database.drop()


def test_the_project_passes_django_s_checks_without_warnings(database):
    output = manage("check", "--fail-level", "WARNING", database=database)

    assert "System check identified no issues" in output


def test_the_committed_migrations_match_the_models(database):
    output = manage("makemigrations", "--check", "--dry-run", database=database)

    assert "No changes detected" in output


def test_seed_demo_creates_the_demo_data_once(database):
    first = manage("seed_demo", database=database)
    snapshot = manage("dumpdata", *SEEDED_MODELS, database=database)
    second = manage("seed_demo", database=database)

    assert "2 users, 5 todos, 22 messages and 3 notes created" in first
    assert "0 users, 0 todos, 0 messages and 0 notes created" in second
    assert f"Log in as {DEMO_EMAIL} with the password {DEMO_PASSWORD}" in second
    assert manage("dumpdata", *SEEDED_MODELS, database=database) == snapshot


def test_seed_demo_restores_the_demo_password(database):
    manage("seed_demo", database=database)
    check = (
        "from accounts.models import User; "
        f"print(User.objects.get(email={DEMO_EMAIL!r}).check_password({DEMO_PASSWORD!r}))"
    )
    manage(
        "shell",
        "--verbosity=0",
        "-c",
        f"from accounts.models import User; u = User.objects.get(email={DEMO_EMAIL!r}); "
        "u.set_password('changed by the user'); u.save()",
        database=database,
    )
    assert manage("shell", "--verbosity=0", "-c", check, database=database).strip() == "False"

    manage("seed_demo", database=database)

    assert manage("shell", "--verbosity=0", "-c", check, database=database).strip() == "True"

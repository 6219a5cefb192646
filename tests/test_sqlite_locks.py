"""
On the in-memory SQLite test database (one cache shared by every connection of the process) a
write meeting another connection's table lock waits for it, as a write to a file database waits
for the file's lock, instead of failing at once with "database table is locked".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.db import OperationalError, connection

from django_services import clock
from tests.other_connections import HeldTransaction, started_in_a_thread, transaction_held
from tests.testapp.models import Person
from tests.waiting import eventually

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def shared_cache():
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        pytest.skip("table locks of a shared cache: the in-memory SQLite test database")


@pytest.fixture
def manual() -> Iterator[clock.ManualClock]:
    with clock.replaced(clock.ManualClock()) as manual:
        yield manual


@pytest.fixture
def reader() -> Iterator[HeldTransaction]:
    """Another connection reading people in a transaction, which holds their table's lock."""
    with transaction_held(lambda: list(Person.objects.all())) as held:
        yield held


def write_in_thread() -> tuple[threading.Thread, list[object]]:
    return started_in_a_thread(lambda: Person.objects.create(name="written"))


def test_a_write_waits_for_a_read_of_its_table_then_is_written(manual, reader):
    writer, outcome = write_in_thread()
    eventually(lambda: manual.waits, message="the write meets the lock and waits")

    reader.release()
    manual.advance(1)
    writer.join(10)

    [person] = outcome
    assert isinstance(person, Person)
    assert list(Person.objects.values_list("name", flat=True)) == ["written"]


def test_a_write_still_locked_out_after_the_timeout_fails_and_writes_nothing(manual, reader):
    writer, outcome = write_in_thread()
    eventually(lambda: manual.waits, message="the write meets the lock and waits")

    manual.advance(10)  # past the database's timeout (5 s, Python's default)
    writer.join(10)

    [error] = outcome
    assert isinstance(error, OperationalError)
    assert "locked" in str(error)
    assert sum(manual.waits) <= 5
    reader.release()
    assert not Person.objects.exists()


def test_a_read_meeting_a_write_lock_is_not_held_up():
    uncommitted = transaction_held(lambda: Person.objects.create(name="uncommitted"))
    with uncommitted, pytest.raises(OperationalError, match="locked"):
        list(Person.objects.all())

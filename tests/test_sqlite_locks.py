"""
On the in-memory SQLite test database (one cache shared by every connection of the process) a
write meeting another connection's table lock waits for it, as a write to a file database waits
for the file's lock, instead of failing at once with "database table is locked".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.db import OperationalError, connection, connections, transaction

from django_services import clock
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


class Reader(threading.Thread):
    """Another connection reading people in a transaction, which holds their table's lock."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = threading.Event()
        self.release = threading.Event()

    def run(self) -> None:
        try:
            with transaction.atomic():
                list(Person.objects.all())
                self.reading.set()
                self.release.wait(30)
        finally:
            connections.close_all()


@pytest.fixture
def reader() -> Iterator[Reader]:
    reader = Reader()
    reader.start()
    assert reader.reading.wait(10)
    yield reader
    reader.release.set()
    reader.join(10)


def write_in_thread() -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = []

    def write() -> None:
        try:
            outcome.append(Person.objects.create(name="written"))
        except Exception as exc:
            outcome.append(exc)
        finally:
            connections.close_all()

    writer = threading.Thread(target=write)
    writer.start()
    return writer, outcome


def test_a_write_waits_for_a_read_of_its_table_then_is_written(manual, reader):
    writer, outcome = write_in_thread()
    eventually(lambda: manual.waits, message="the write meets the lock and waits")

    reader.release.set()
    reader.join(10)
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
    reader.release.set()
    reader.join(10)
    assert not Person.objects.exists()


def test_a_read_meeting_a_write_lock_is_not_held_up():
    written, release = threading.Event(), threading.Event()

    def hold_a_write() -> None:
        try:
            with transaction.atomic():
                Person.objects.create(name="uncommitted")
                written.set()
                release.wait(30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_a_write)
    holder.start()
    try:
        assert written.wait(10)
        with pytest.raises(OperationalError, match="locked"):
            list(Person.objects.all())
    finally:
        release.set()
        holder.join(10)

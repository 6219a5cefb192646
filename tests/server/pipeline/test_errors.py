"""Any exception as the Feathers error a caller receives, and the wait it asks for."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, InterfaceError, transaction
from rest_framework import exceptions

from django_services import errors
from django_services.server.database_errors import RETRY_AFTER
from django_services.server.pipeline.errors import (
    retry_after,
    to_feathers_error,
    validation_message,
)
from tests.testapp.models import Message, PersonCustomId


def test_integrity_error_is_a_conflict():
    error = to_feathers_error(IntegrityError("duplicate key value violates unique constraint"))
    assert isinstance(error, errors.Conflict)
    assert "duplicate" not in error.message


def _integrity_error(write) -> IntegrityError:
    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        write()
    return raised.value


@pytest.mark.django_db
def test_a_duplicate_from_the_database_is_a_conflict():
    PersonCustomId.objects.create(customid="a", name="A")
    error = to_feathers_error(
        _integrity_error(lambda: PersonCustomId.objects.create(customid="a", name="B"))
    )

    assert isinstance(error, errors.Conflict)
    assert error.message == "The data conflicts with an existing record"


@pytest.mark.django_db
def test_a_missing_value_from_the_database_is_a_bad_request_not_a_conflict():
    error = to_feathers_error(_integrity_error(lambda: Message.objects.create(text="hi")))

    assert isinstance(error, errors.BadRequest)
    assert error.message == "The data violates a constraint of the database"


def test_validation_message_summarises_nested_and_listed_errors():
    detail = [{}, {"name": ["Required."], "tags": {"0": ["Bad."]}}]
    assert validation_message(detail) == "item 1: name: Required.; tags: 0: Bad."
    error = to_feathers_error(exceptions.ValidationError(detail))
    assert error.errors == detail
    assert error.message == "item 1: name: Required.; tags: 0: Bad."


@pytest.mark.parametrize(
    ("exc", "seconds"),
    [
        (exceptions.Throttled(wait=2.5), 3),
        (exceptions.Throttled(), None),
        (errors.TooManyRequests("Slow down"), None),
        (InterfaceError("connection already closed"), RETRY_AFTER),
        (errors.NotFound("No record"), None),
    ],
)
def test_the_wait_before_a_retry_is_read_from_the_error(exc, seconds):
    # What REST sends as Retry-After and a socket as data.retryAfter.
    assert retry_after(exc) == seconds

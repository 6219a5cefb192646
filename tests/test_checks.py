"""
The system checks of a service's `event_readers`: a value that is none of the known ones
(`django_services.E014`), and events sent unchecked by a service whose `get_queryset` is its
own (`django_services.W015`); a recovery window too short for the event log's readers
(`django_services.W016`); an outgoing limit that is not a number of bytes
(`django_services.E017`).
"""

from __future__ import annotations

import pytest
from django.core.checks import run_checks
from django.test import override_settings

from tests.server.model_services import PersonService
from tests.server.socketio.read_services import NoteService

# A model's JSON fields ask the database whether it supports them (newer Django's checks).
pytestmark = pytest.mark.django_db

HERE = "tests.test_checks."
READS = "tests.server.socketio.read_services."


class TypoNoteService(NoteService):
    event_readers = "shard"


class OpenPeopleService(PersonService):
    """Every record is everyone's: nothing to check, and nothing to warn about."""

    event_readers = "unchecked"


class LifecyclePeopleService(PersonService):
    """A DRF habit: work done in `initial()`, which the REST adapter does not call."""

    def initial(self, request, *args, **kwargs):
        raise AssertionError("never called")


def messages(services, check_id):
    with override_settings(DJANGO_SERVICES={"SERVICES": services}):
        return [message for message in run_checks() if message.id == check_id]


def test_an_unknown_event_readers_value_is_an_error_naming_the_value_meant():
    (error,) = messages({"notes": HERE + "TypoNoteService"}, "django_services.E014")
    assert error.msg == (
        "The service at 'notes' (TypoNoteService) has event_readers 'shard': one of "
        "'per_user', 'shared', 'unchecked'. Did you mean 'shared'?"
    )


def test_every_known_value_passes():
    declared = {
        "notes": READS + "NoteService",
        "shared-notes": READS + "SharedNoteService",
        "people": HERE + "OpenPeopleService",
    }
    assert messages(declared, "django_services.E014") == []


def test_events_sent_unchecked_by_a_service_with_its_own_queryset_are_a_warning():
    declared = {"open-notes": READS + "OpenNoteService", "people": HERE + "OpenPeopleService"}
    (warning,) = messages(declared, "django_services.W015")
    assert warning.msg.startswith(
        "The service at 'open-notes' (OpenNoteService) sends its events to its channels "
        "unchecked (event_readers = 'unchecked'), while its get_queryset is its own"
    )


def test_a_per_user_or_shared_service_with_its_own_queryset_is_not_warned_about():
    declared = {"notes": READS + "NoteService", "shared-notes": READS + "SharedNoteService"}
    assert messages(declared, "django_services.W015") == []


def recovery_messages(recovery):
    with override_settings(DJANGO_SERVICES={"SERVICES": {}, "SOCKETIO_RECOVERY": recovery}):
        return [message for message in run_checks() if message.id == "django_services.W016"]


def test_a_recovery_window_shorter_than_the_log_s_readers_need_is_a_warning():
    (warning,) = recovery_messages({"WINDOW": 1, "POLL_INTERVAL": 1.0, "GAP_GRACE": 0.5})
    assert warning.msg.startswith(
        "DJANGO_SERVICES['SOCKETIO_RECOVERY']['WINDOW'] (1 s) is shorter than twice "
        "POLL_INTERVAL and GAP_GRACE together (1.5 s)"
    )


def test_the_default_recovery_window_passes():
    assert recovery_messages({}) == []
    assert recovery_messages({"WINDOW": 3, "POLL_INTERVAL": 1.0, "GAP_GRACE": 0.5}) == []


def outgoing_messages(value):
    with override_settings(DJANGO_SERVICES={"SERVICES": {}, "SOCKETIO_OUTGOING_LIMIT": value}):
        return [message for message in run_checks() if message.id == "django_services.E017"]


@pytest.mark.parametrize("value", [0, -1, 1.5, "4MB", None, True])
def test_an_outgoing_limit_that_is_not_a_positive_integer_is_an_error(value):
    (error,) = outgoing_messages(value)
    assert error.msg == (
        "DJANGO_SERVICES['SOCKETIO_OUTGOING_LIMIT'] must be a positive integer of bytes, "
        f"not {value!r}."
    )


def test_an_outgoing_limit_of_bytes_passes():
    assert outgoing_messages(65536) == []
    with override_settings(DJANGO_SERVICES={"SERVICES": {}}):
        assert [m for m in run_checks() if m.id == "django_services.E017"] == []


def test_a_service_defining_the_request_lifecycle_is_a_warning_naming_the_methods():
    declared = {"people": HERE + "LifecyclePeopleService", "others": HERE + "OpenPeopleService"}
    (warning,) = messages(declared, "django_services.W018")
    assert warning.msg == (
        "The service at 'people': LifecyclePeopleService defines initial, which REST does "
        "not call: the REST adapter runs the request itself."
    )
    assert "hook" in warning.hint

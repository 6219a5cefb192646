"""
`logins_ended`: sent once the change that ends logins commits, for each way a login ends, and
not for a save that cannot end one or a change rolled back.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client as DjangoClient

from django_services.server.authentication import signals
from django_services.server.authentication.signals import EndedLogins, end_logins, logins_ended
from tests.testapp.models import User

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ended():
    """The endings sent while the test runs, in order."""
    signals.install()
    received: list[EndedLogins] = []

    def receiver(sender, ended, **kwargs):
        received.append(ended)

    logins_ended.connect(receiver)
    yield received
    logins_ended.disconnect(receiver)


@pytest.fixture
def ada():
    return User.objects.create_user(email="ada@example.com", password="correct horse")


def test_a_password_change_deactivation_or_deletion_ends_the_users_logins(ended, ada):
    ada.set_password("another")
    ada.save()
    ada.is_active = False
    ada.save(update_fields=["is_active"])
    pk = ada.pk
    ada.delete()
    assert ended == [EndedLogins(user=str(pk))] * 3


def test_a_save_of_other_fields_and_a_new_user_end_nothing(ended, ada):
    ada.email = "ada@example.org"
    ada.save(update_fields=["email", "last_login"])
    User.objects.create_user(email="bob@example.com", password="correct horse")
    assert ended == []


def test_the_ending_is_sent_once_the_transaction_commits_and_never_if_it_rolls_back(ended, ada):
    with transaction.atomic():
        end_logins(jti="kept")
        assert ended == []
    assert ended == [EndedLogins(jti="kept")]
    with pytest.raises(RuntimeError), transaction.atomic():
        end_logins(jti="rolled-back")
        raise RuntimeError
    assert ended == [EndedLogins(jti="kept")]


def test_a_django_logout_ends_the_logins_of_its_session(ended, ada):
    browser = DjangoClient()
    browser.force_login(ada)
    session_key = browser.session.session_key
    ended.clear()
    browser.logout()
    # Told by the logout, and by the session's row going (both end the same logins).
    assert set(ended) == {EndedLogins(session_key=session_key)}


def test_a_session_flushed_without_a_logout_ends_the_logins_of_its_session(ended, ada):
    browser = DjangoClient()
    browser.force_login(ada)
    session = browser.session
    ended.clear()
    session.flush()
    assert set(ended) == {EndedLogins(session_key=browser.cookies["sessionid"].value)}


def test_a_failing_receiver_is_logged_and_the_others_still_run(ended, ada, caplog):
    def failing(sender, ended, **kwargs):
        raise RuntimeError("unreachable Redis")

    logins_ended.connect(failing)
    try:
        ada.set_password("another")
        ada.save()
    finally:
        logins_ended.disconnect(failing)
    assert ended == [EndedLogins(user=str(ada.pk))]
    assert "A receiver of logins_ended failed" in caplog.text

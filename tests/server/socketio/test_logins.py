"""
The index of a process's logged-in connections: found by user, token, family and session,
forgotten at logout and when the connection goes, and the endings of the moment remembered
for the logins being made meanwhile.
"""

from __future__ import annotations

import gc

from django_services.server.authentication.signals import EndedLogins
from django_services.server.socketio.connection import Connection
from django_services.server.socketio.logins import RECENT, LoginIndex


class Person:
    def __init__(self, pk: int) -> None:
        self.pk = pk


def token_login(index: LoginIndex, sid: str, pk: int, jti: str, family: str | None = None):
    connection = Connection(sid=sid, logins=index)
    payload = {"sub": str(pk), "jti": jti, **({"sid": family} if family else {})}
    connection.login(Person(pk), {"strategy": "jwt", "accessToken": "T", "payload": payload})
    return connection


def test_a_login_is_found_by_its_user_token_family_and_session():
    index = LoginIndex()
    ada = token_login(index, "a", 1, "jti-a", "family-a")
    bob = token_login(index, "b", 2, "jti-b")
    browser = Connection(sid="c", logins=index)
    browser.login(Person(1), {"strategy": "session"}, session_key="session-1")

    assert set(map(id, index.find(EndedLogins(user="1")))) == {id(ada), id(browser)}
    assert index.find(EndedLogins(jti="jti-b")) == [bob]
    assert index.find(EndedLogins(family="family-a")) == [ada]
    assert index.find(EndedLogins(session_key="session-1")) == [browser]
    assert index.find(EndedLogins(user="3", jti="jti-c")) == []


def test_a_connection_leaves_the_index_at_logout_at_a_new_login_and_when_it_goes():
    index = LoginIndex()
    ada = token_login(index, "a", 1, "jti-a")
    ada.login(Person(2), {"strategy": "jwt", "accessToken": "U", "payload": {"jti": "jti-u"}})
    assert index.find(EndedLogins(user="1", jti="jti-a")) == []
    assert index.find(EndedLogins(user="2")) == [ada]
    ada.logout()
    assert index.find(EndedLogins(user="2", jti="jti-u")) == []
    assert len(index) == 0

    token_login(index, "b", 3, "jti-b")
    gc.collect()
    assert index.find(EndedLogins(user="3")) == []
    assert len(index) == 0


def test_the_endings_since_a_mark_are_known_until_too_many_happened():
    index = LoginIndex()
    mark = index.mark()
    assert index.ended_since(mark) == set()
    index.find(EndedLogins(user="1"))
    index.find(EndedLogins(jti="jti-a", family="family-a"))
    assert index.ended_since(mark) == {("user", "1"), ("jti", "jti-a"), ("family", "family-a")}
    assert index.ended_since(index.mark()) == set()
    for _ in range(RECENT):
        index.find(EndedLogins(user="2"))
    assert index.ended_since(mark) is None

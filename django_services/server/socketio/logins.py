"""
A process's logged-in socket.io connections, by the keys of their logins.

    index = LoginIndex()
    index.update(connection)                 # after each login and logout of `connection`
    index.find(EndedLogins(user="42"))       # the connections of user 42

A login is found by its user's primary key, its token's id (`jti`), its refresh token family
(the `sid` claim) and its Django session. Connections are held weakly: a socket that goes away
leaves the index with it.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from typing import Any

from ..authentication.refresh import FAMILY_CLAIM
from ..authentication.signals import EndedLogins

__all__ = ["LoginIndex", "ended_keys", "login_keys"]

#: The endings an index remembers, for the logins being made while they happened.
RECENT = 256


def login_keys(connection: Any) -> set[tuple[str, str]]:
    """The keys a connection's login is found by: its user, token id, family and session."""
    keys: set[tuple[str, str]] = set()
    if connection.authentication is None:
        return keys
    pk = getattr(connection.user, "pk", None)
    if pk is not None:
        keys.add(("user", str(pk)))
    payload = connection.authentication.get("payload") or {}
    for kind, claim in (("jti", "jti"), ("family", FAMILY_CLAIM)):
        if payload.get(claim) is not None:
            keys.add((kind, str(payload[claim])))
    if connection.session_key:
        keys.add(("session", connection.session_key))
    return keys


def ended_keys(ended: EndedLogins) -> set[tuple[str, str]]:
    """The keys of the logins `ended` names."""
    kinds = ("user", ended.user), ("jti", ended.jti), ("family", ended.family)
    keys = {(kind, value) for kind, value in kinds if value is not None}
    if ended.session_key is not None:
        keys.add(("session", ended.session_key))
    return keys


class LoginIndex:
    """A process's logged-in connections by the keys of their logins (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connections: dict[tuple[str, str], weakref.WeakSet[Any]] = {}
        self._keys: weakref.WeakKeyDictionary[Any, set[tuple[str, str]]] = (
            weakref.WeakKeyDictionary()
        )
        self._count = 0
        self._recent: deque[set[tuple[str, str]]] = deque(maxlen=RECENT)

    def update(self, connection: Any) -> None:
        """File `connection` under the keys of its current login (none once logged out)."""
        keys = login_keys(connection)
        with self._lock:
            old = self._keys.pop(connection, set())
            for key in old - keys:
                members = self._connections.get(key)
                if members is not None:
                    members.discard(connection)
                    if not members:
                        del self._connections[key]
            for key in keys:
                self._connections.setdefault(key, weakref.WeakSet()).add(connection)
            if keys:
                self._keys[connection] = keys

    def find(self, ended: EndedLogins) -> list[Any]:
        """The connections filed under a key of `ended`, which is remembered (`ended_since`)."""
        found: dict[int, Any] = {}
        keys = ended_keys(ended)
        with self._lock:
            self._count += 1
            self._recent.append(keys)
            for key in keys:
                for connection in self._connections.get(key, ()):
                    found[id(connection)] = connection
        return list(found.values())

    def mark(self) -> int:
        """A mark of the present, for `ended_since`: taken before a login is checked."""
        with self._lock:
            return self._count

    def ended_since(self, mark: int) -> set[tuple[str, str]] | None:
        """
        The keys of the endings found since `mark`; None when too many happened to tell. A
        login checked after `mark` and filed after an ending looked for it is checked again.
        """
        with self._lock:
            count = self._count - mark
            if count > len(self._recent):
                return None
            return set().union(*list(self._recent)[len(self._recent) - count :]) if count else set()

    def __len__(self) -> int:
        with self._lock:
            return len(self._keys)

"""
The package's models: the refresh tokens the authentication service issued, and the log of the
service events sent to socket.io connections.

Only a SHA-256 hash of each token is stored, so a copy of the table logs no one in; the rows say
who holds a login (`subject`), which login a token belongs to (`family`), when it was spent or
revoked, so logins can be listed, ended and audited. `manage.py clear_refresh_tokens` deletes the
expired ones.

Each service event a publisher sends (`SOCKETIO_PUBLISHER`) is written to the event log in the
transaction of the write that causes it, so an event exists once, and only once, its write
commits; its id is the event's offset. `manage.py prune_events` deletes what is older than
`SOCKETIO_RECOVERY["WINDOW"]` or beyond `SOCKETIO_RECOVERY["MAX_EVENTS"]`.

Each socket.io connection has a session (`SocketSession`), under the hash of the private id its
client keeps, so that a client whose connection is lost can be given the events it missed, its
channels and its login, by any process, within `SOCKETIO_RECOVERY["WINDOW"]`.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from rest_framework.utils.encoders import JSONEncoder

__all__ = ["JSONTextField", "LoggedEvent", "RefreshToken", "SocketSession"]

#: One encoder for every JSON text column (DRF's: dates, decimals, UUIDs...).
_ENCODER = JSONEncoder()


class JSONTextField(models.TextField):
    """
    A JSON document kept as its text in a text column: encoded with DRF's `JSONEncoder` when
    written, decoded when read, None as SQL NULL. Unlike `JSONField`, the database neither
    checks nor parses it (SQLite's `JSON_VALID` on each write), and it cannot be queried
    inside: the event log only stores and returns its documents.
    """

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else _ENCODER.encode(value)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return value


class RefreshToken(models.Model):
    """
    One refresh token. Each refresh spends a token (`used_at`) and issues its heir in the same
    `family`; presenting a spent token revokes the whole family (`revoked_at`).
    """

    token_hash = models.CharField(max_length=64, unique=True)
    family = models.UUIDField(db_index=True)
    subject = models.CharField(max_length=255, db_index=True)
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "refresh token"
        ordering = ["issued_at"]

    def __str__(self) -> str:
        return f"refresh token of {self.subject} ({self.family})"


class LoggedEvent(models.Model):
    """
    One service event as it is sent: `"<path> <event>"` with `data`, to the connections of
    `channels` (`[{"names": [...]}, ...]`, with `"data"` for a channel's own data) whose user
    may read it (`read`, the read rule as JSON; null: unchecked). The id is its offset.
    """

    id = models.BigAutoField(primary_key=True)
    logged_at = models.DateTimeField(db_index=True)
    path = models.CharField(max_length=255)
    event = models.CharField(max_length=255)
    data = JSONTextField(null=True)
    channels = JSONTextField()
    read = JSONTextField(null=True)

    class Meta:
        verbose_name = "logged event"
        ordering = ["id"]

    def __str__(self) -> str:
        return f"event {self.id}: {self.path} {self.event}"


class SocketSession(models.Model):
    """
    The state of one socket.io connection that a reconnect recovers: its `channels` (the
    rooms it was in), its login (`subject`, `authentication`, `session_key`) and the events it
    had been sent when it connected (`offsets`, see `server.socketio.offsets`). `lost_at` is
    set when its connection was lost; a reconnect later than `SOCKETIO_RECOVERY["WINDOW"]`
    after it starts afresh. Only the SHA-256 hash of the private id is stored.
    """

    pid_hash = models.CharField(max_length=64, primary_key=True)
    offsets = models.TextField()
    channels = models.JSONField(encoder=JSONEncoder)
    subject = models.CharField(max_length=255, null=True, blank=True)
    authentication = models.JSONField(encoder=JSONEncoder, null=True)
    session_key = models.CharField(max_length=255, null=True, blank=True)
    seen_at = models.DateTimeField(db_index=True)
    lost_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "socket session"

    def __str__(self) -> str:
        return f"socket session {self.pid_hash[:12]}"

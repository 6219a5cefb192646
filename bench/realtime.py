"""The socket benchmark's publisher: every connection, logged in or not, gets every event."""

from __future__ import annotations

from typing import Any

from django_services.server.socketio import Publisher, channel

EVERYONE = "everyone"


class EveryonePublisher(Publisher):
    def connected(self, connection: Any) -> list[str]:
        return [EVERYONE]

    def logged_in(self, connection: Any) -> list[str]:
        return [EVERYONE]

    def publish(self, event: Any) -> Any:
        return channel(EVERYONE)

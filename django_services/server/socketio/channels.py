"""
Channels and publishers: which socket.io connections receive each service event.

    # settings.py
    DJANGO_SERVICES = {"SOCKETIO_PUBLISHER": "chat.realtime.Publisher"}

    # chat/realtime.py
    from django_services.server.socketio import Publisher, channel

    class Publisher(Publisher):
        def publish(self, event):
            return channel("authenticated")         # every logged-in connection

    # chat/services.py: a service may decide for its own events
    class MessageService(ModelService):
        def publish(self, event):
            return channel(f"users/{event.data['userId']}")

A channel is a named set of connections, a socket.io room. The publisher puts connections in
channels when they connect (`connected`), log in (`logged_in`) and log out (`logged_out`, none
unless overridden: a logout leaves every channel, as in Feathers), whether the logout is a
`remove` on `authentication`, a login a call finds gone, or one ended on the server. An event
goes to the connections of the channels its publisher returns, each at most once, as the event
`"<path> <event>"` with the record as its one argument, if the connection's user could `get`
the record (the read rule, `reads`). Nothing is published without a
publisher, nor when it returns nothing; the authentication service publishes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any

from ...conf import import_from_string, services_settings
from ..pipeline.events import ServiceEvent
from .connection import Connection

__all__ = ["Channel", "Publisher", "channel", "get_publisher", "resolve_channels"]

_NO_DATA: Any = object()


@dataclasses.dataclass(frozen=True)
class Channel:
    """
    One or more channels by name, and optionally the data their connections get instead of the
    event's record (`channel("admins").send({...})`).
    """

    names: tuple[str, ...]
    data: Any = dataclasses.field(default=_NO_DATA, compare=False)

    @property
    def has_data(self) -> bool:
        """Whether `send()` gave the channel data of its own."""
        return self.data is not _NO_DATA

    def send(self, data: Any) -> Channel:
        """The same channels, whose connections receive `data` instead of the record."""
        return Channel(self.names, data)


def channel(*names: str | Iterable[str]) -> Channel:
    """The channels named (`channel("a", "b")` or `channel(["a", "b"])`), combined."""
    flat: list[str] = []
    for name in names:
        flat.extend([name] if isinstance(name, str) else name)
    return Channel(tuple(str(name) for name in flat))


class Publisher:
    """
    The channel policy of a project: which channels a connection is in, and where events go.

    The defaults are those of a generated Feathers app: connections join `anonymous`; a login
    moves them to `authenticated` and `users/<user pk>`; a logout out of every channel; every
    event goes to `authenticated`. Override any of the four methods.
    """

    def connected(self, connection: Connection) -> Iterable[str]:
        """The channels a new connection joins."""
        return ["anonymous"]

    def logged_in(self, connection: Connection) -> Iterable[str]:
        """The channels a connection joins when it logs in, after leaving every other one."""
        return ["authenticated", f"users/{connection.user.pk}"]

    def logged_out(self, connection: Connection) -> Iterable[str]:
        """
        The channels a connection joins when its login ends, after leaving every channel: none,
        as in Feathers (return `self.connected(connection)` to make it a new connection's).
        """
        return []

    def publish(self, event: ServiceEvent) -> Channel | Iterable[Channel] | None:
        """
        The channels `event` goes to: a `Channel`, a list of them, or None for nobody. Of
        their connections, those whose user may not read the event do not get it (`reads`).

        Called only for services that have no `publish` method of their own.
        """
        return channel("authenticated")


def get_publisher() -> Publisher | None:
    """The publisher of `DJANGO_SERVICES["SOCKETIO_PUBLISHER"]`, or None."""
    value = services_settings.SOCKETIO_PUBLISHER
    if value is None:
        return None
    publisher = _imported(value) if isinstance(value, str) else value
    return publisher() if isinstance(publisher, type) else publisher


@functools.lru_cache(maxsize=16)
def _imported(path: str) -> Any:
    """The publisher at the dotted `path`, imported once (each write asks for it)."""
    return import_from_string(path, "['SOCKETIO_PUBLISHER']")


def resolve_channels(publisher: Publisher, event: ServiceEvent) -> list[Channel]:
    """
    The channels of `event`, in order: the service's own `publish(event)` if it has one, else
    the publisher's. Lists are flattened; None and empty entries dropped; names are channels.
    """
    from ..authentication.service import AuthenticationService

    service = getattr(event.context, "service", None)
    if isinstance(service, AuthenticationService):
        return []
    own = getattr(service, "publish", None)
    chosen = own(event) if callable(own) else publisher.publish(event)
    return list(_flatten(chosen))


def _flatten(chosen: Any) -> Iterable[Channel]:
    if not chosen:
        return
    if isinstance(chosen, Channel):
        yield chosen
    elif isinstance(chosen, str):
        yield channel(chosen)
    else:
        for item in chosen:
            yield from _flatten(item)

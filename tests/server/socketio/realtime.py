"""
The channels of the revocation tests: those of a generated Feathers app, but a logged-out
connection joins the channels of a new one, and `people` events reach anonymous connections
too, so that a logged-out socket still gets a barrier event. And those of a login held in its
thread while the test sends events (`GatedPublisher`).
"""

from __future__ import annotations

import threading

from django_services.server.socketio import Publisher, channel


class RevocationPublisher(Publisher):
    """
    The default channels, but a logout joins `anonymous`; `people` events also reach anonymous
    connections (the barrier).
    """

    def logged_out(self, connection):
        return self.connected(connection)

    def publish(self, event):
        if event.path == "people":
            return channel("anonymous", "authenticated")
        return super().publish(event)


class Gate:
    """Holds the next `logged_in()` of `GatedPublisher` in its thread until `release()`."""

    def __init__(self) -> None:
        self.armed = threading.Event()
        self.entered = threading.Event()
        self.released = threading.Event()

    def arm(self) -> None:
        self.entered.clear()
        self.released.clear()
        self.armed.set()

    def release(self) -> None:
        self.released.set()


#: The gate of `GatedPublisher`'s `logged_in()`.
gate = Gate()


class GatedPublisher(Publisher):
    """The default channels, chosen at a login only once `gate` lets it (when armed)."""

    def logged_in(self, connection):
        if gate.armed.is_set():
            gate.armed.clear()
            gate.entered.set()
            gate.released.wait(10)
        return super().logged_in(connection)

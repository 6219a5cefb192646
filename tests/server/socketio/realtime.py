"""
The channels of the revocation tests: those of a generated Feathers app, but a logged-out
connection joins the channels of a new one, and `people` events reach anonymous connections
too, so that a logged-out socket still gets a barrier event.
"""

from __future__ import annotations

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

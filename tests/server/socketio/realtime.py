"""
The channels of the revocation tests: those of a generated Feathers app, and `people` events
to anonymous connections too, so that a logged-out socket still gets a barrier event.
"""

from __future__ import annotations

from django_services.server.socketio import Publisher, channel


class RevocationPublisher(Publisher):
    """The default channels; `people` events also reach anonymous connections (the barrier)."""

    def publish(self, event):
        if event.path == "people":
            return channel("anonymous", "authenticated")
        return super().publish(event)

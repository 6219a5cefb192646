"""
The channel policy of the conformance fixture, for its socket.io connections.

* a new connection joins `anonymous`;
* a login leaves every channel, then joins `authenticated` and `users/<user id>`;
* every event goes to `authenticated`, except where a service decides (`api/v1/messages`: its
  owner's channel; `users`: `authenticated` and the user's own; `secrets`: nobody).
"""

from __future__ import annotations

from django_services.server.socketio import Publisher


class ConformancePublisher(Publisher):
    """The default policy of a generated Feathers app, which `Publisher` already is."""

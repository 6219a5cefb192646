"""
The conformance fixture's settings for the revocation tests across processes: tokens end with
a password change (`REVOKE_ON_PASSWORD_CHANGE`, which the fixture turns off for Feathers'
specs), and `people` events reach anonymous connections (`realtime.RevocationPublisher`).
"""

from __future__ import annotations

from tests.interop.conformance.settings import *  # noqa: F403
from tests.interop.conformance.settings import DJANGO_SERVICES

DJANGO_SERVICES = {
    **DJANGO_SERVICES,
    "SOCKETIO_PUBLISHER": "tests.server.socketio.realtime.RevocationPublisher",
    "AUTHENTICATION": {**DJANGO_SERVICES["AUTHENTICATION"], "REVOKE_ON_PASSWORD_CHANGE": True},
}

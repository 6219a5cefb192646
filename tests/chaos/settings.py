"""
The conformance fixture's settings, as a production deployment runs them: database
connections kept between requests, and the event log read often, so that an event only the
log holds arrives within a fraction of a second and each scenario runs in seconds. What the
server processes of the chaos tests serve.
"""

from __future__ import annotations

from tests.interop.conformance.settings import *  # noqa: F403
from tests.interop.conformance.settings import DATABASES
from tests.interop.conformance.settings import DJANGO_SERVICES as _CONFORMANCE

DATABASES["default"]["CONN_MAX_AGE"] = 60

DJANGO_SERVICES = {
    **_CONFORMANCE,
    "SOCKETIO_RECOVERY": {"POLL_INTERVAL": 0.1, "GAP_GRACE": 0.2},
}

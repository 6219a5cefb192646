"""
The conformance fixture's settings, with the services of `read_services` besides: what the
socket.io server processes of `test_reads_redis` serve.
"""

from __future__ import annotations

from tests.interop.conformance.settings import *  # noqa: F403
from tests.interop.conformance.settings import DJANGO_SERVICES as _CONFORMANCE

_S = "tests.server.socketio.read_services."
DJANGO_SERVICES = {
    **_CONFORMANCE,
    "SERVICES": {
        **_CONFORMANCE["SERVICES"],
        "notes": _S + "NoteService",
        "shared-notes": _S + "SharedNoteService",
        "open-notes": _S + "OpenNoteService",
        "guarded-notes": _S + "GuardedNoteService",
        "data-notes": _S + "DataNoteService",
    },
}

"""The ASGI application of the socket benchmark: `uvicorn bench.asgi:application`."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from django_services.server.socketio import get_asgi_application

application = get_asgi_application()

"""
The ASGI application of the example project: the page, the admin, the API docs and every
service over REST, and the same services over socket.io at `/socket.io/`, on one port.

    uvicorn --app-dir example_project config.asgi:application --ws-per-message-deflate false

With `DEBUG` on, it serves the static files too, as `runserver` does.
"""

from __future__ import annotations

import os

from django_services.server.socketio import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

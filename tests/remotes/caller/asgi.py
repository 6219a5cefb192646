"""The caller project under ASGI (uvicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.remotes.caller.settings")
application = get_asgi_application()

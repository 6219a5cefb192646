"""The caller project under WSGI (gunicorn)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.remotes.caller.settings")
application = get_wsgi_application()

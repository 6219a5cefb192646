"""
Django settings of the conformance fixture, for the Feathers interoperability tests.

    DJANGO_SETTINGS_MODULE=tests.interop.conformance.settings \
        CONFORMANCE_DATABASE_URL=sqlite:////tmp/conformance.sqlite3 \
        python -m tests.interop.conformance.serve 8000

`CONFORMANCE_DATABASE_URL` names the database (a temporary SQLite file when unset), and
`CONFORMANCE_DATABASE_OPTIONS` (JSON) adds to its `OPTIONS`; the tables are created when the
server starts. `CONFORMANCE_REDIS_URL`, when set, is the Redis through which service events
reach the sockets of every server process (`SOCKETIO_REDIS_URL`), and
`CONFORMANCE_REDIS_CHANNEL` their pub/sub channel (`SOCKETIO_REDIS_CHANNEL`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import dj_database_url

SERVICES_MODULE = "tests.interop.conformance.services."

DEBUG = False
SECRET_KEY = "django-services-conformance-fixture-secret-key-not-for-production"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("CONFORMANCE_DATABASE_URL")
        or f"sqlite:///{Path(tempfile.gettempdir()) / 'django-services-conformance.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several server processes share the file: writers queue for the database (a write
    # transaction takes it at BEGIN, waiting up to 20 s) while readers go on (WAL).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL",
    }
# `CONFORMANCE_DATABASE_OPTIONS` (JSON) adds or replaces options: a shorter lock wait, say.
DATABASES["default"].setdefault("OPTIONS", {}).update(
    json.loads(os.environ.get("CONFORMANCE_DATABASE_OPTIONS") or "{}")
)

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "rest_framework",
    "django_services",
    "tests.testapp",
]
# The test models have no migrations and point at auth's: every table is created from the
# models at start-up, in one pass (as the test suite's --no-migrations does).
MIGRATION_MODULES = {"auth": None, "contenttypes": None, "sessions": None}
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.interop.conformance.urls"
AUTH_USER_MODEL = "testapp.User"
# A fast hasher keeps the many logins of the interoperability tests quick; production projects
# keep Django's default.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

DJANGO_SERVICES = {
    "SERVICES": {
        "people": SERVICES_MODULE + "PersonService",
        "people-paginated": SERVICES_MODULE + "PaginatedPersonService",
        "people-customid": SERVICES_MODULE + "PersonCustomIdService",
        "api/v1/messages": SERVICES_MODULE + "MessageService",
        "todos": SERVICES_MODULE + "TodoService",
        "users": SERVICES_MODULE + "ConformanceUserService",
        "secrets": SERVICES_MODULE + "SecretService",
        "users/:userId/notes": SERVICES_MODULE + "NoteService",
        "errors": SERVICES_MODULE + "ErrorService",
    },
    "SOCKETIO_PUBLISHER": "tests.interop.conformance.realtime.ConformancePublisher",
    "AUTHENTICATION": {
        "SECRET": "django-services-conformance-jwt-secret-of-at-least-32-bytes",
        "ENTITY": "user",
        "ENTITY_SERVICE": "users",
        # Feathers keeps a connection's token valid across a password change, and the specs
        # this fixture answers assert Feathers' behaviour (see docs/authentication.md).
        "REVOKE_ON_PASSWORD_CHANGE": False,
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    # Unexpected errors (the `errors` service's plain exception included) go to the server log.
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}

if os.environ.get("CONFORMANCE_REDIS_URL"):
    DJANGO_SERVICES["SOCKETIO_REDIS_URL"] = os.environ["CONFORMANCE_REDIS_URL"]
if os.environ.get("CONFORMANCE_REDIS_CHANNEL"):
    DJANGO_SERVICES["SOCKETIO_REDIS_CHANNEL"] = os.environ["CONFORMANCE_REDIS_CHANNEL"]

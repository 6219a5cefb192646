"""
Settings of the benchmark project, one database per process, chosen by the environment.

    BENCH_ENGINE=sqlite BENCH_ROWS=100000 gunicorn bench.wsgi:application
    BENCH_ENGINE=postgresql BENCH_ROWS=1000000 python -m bench.queries

`BENCH_ENGINE` is `sqlite` (a file under bench/.data/) or `postgresql` (the database of
`BENCH_POSTGRES_URL`, default `postgres://postgres@127.0.0.1:5432/bench`, one schema per table
size). The three variants share the middleware, the database connection settings and the model.
"""

from __future__ import annotations

import os

from bench.databases import database_settings

SECRET_KEY = "bench-only-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "django_services",
    "bench.people",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "bench.urls"
WSGI_APPLICATION = "bench.wsgi.application"

DATABASES = {
    "default": database_settings(
        os.environ.get("BENCH_ENGINE", "sqlite"), int(os.environ.get("BENCH_ROWS", "100000"))
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False

LOGGING = {"version": 1, "disable_existing_loggers": False}

DJANGO_SERVICES = {
    "SERVICES": {
        "people": "bench.people.services.PersonService",
        "people-unpaginated": {
            "class": "bench.people.services.PersonService",
            "paginate": False,
        },
    },
}

# 0 runs ASGI requests as Django's own handler does, each in a new thread (and connection).
if os.environ.get("BENCH_ASGI_REQUEST_THREADS"):
    DJANGO_SERVICES["ASGI_REQUEST_THREADS"] = int(os.environ["BENCH_ASGI_REQUEST_THREADS"])

# Only the socket benchmark publishes events (`bench.sockets` sets BENCH_SOCKETS): the HTTP
# benchmarks measure writes without a publisher, as before.
if os.environ.get("BENCH_SOCKETS"):
    DJANGO_SERVICES["SOCKETIO_PUBLISHER"] = "bench.realtime.EveryonePublisher"
    # Several uvicorn processes (`bench.sockets --server-processes N`) share Redis.
    if os.environ.get("BENCH_REDIS_URL"):
        DJANGO_SERVICES["SOCKETIO_REDIS_URL"] = os.environ["BENCH_REDIS_URL"]
        DJANGO_SERVICES["SOCKETIO_REDIS_CHANNEL"] = os.environ["BENCH_REDIS_CHANNEL"]
    # `bench.sockets --recovery off`: delivery as before connection state recovery (no
    # offsets, no socket sessions); the event log is written either way.
    if os.environ.get("BENCH_RECOVERY") == "off":
        DJANGO_SERVICES["SOCKETIO_RECOVERY"] = {"ENABLED": False}

"""
Settings of the example project: a todo list, a chat and notes served as Feathers services,
over REST and socket.io.

    uvicorn config.asgi:application                   # SQLite: example_project/db.sqlite3
    DATABASE_URL=postgres://user@localhost/demo uvicorn config.asgi:application  # PostgreSQL

`DATABASE_URL` is read with dj-database-url (`pip install dj-database-url "psycopg[binary]"`,
both part of the package's `test` extra). `DJANGO_SECRET_KEY` and `JWT_SECRET` replace the
demo's keys, which are public and only fit a machine of your own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django_services.openapi.conf import SPECTACULAR_DEFAULTS

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-example-project-key-do-not-use-it-in-production"
)
# A demo: tracebacks in the browser, and static files served by the ASGI application.
DEBUG = True
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_services",
    "django_services.openapi",
    "accounts",
    "todos",
    "chat",
    "notes",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


#: Concurrent writers queue for a SQLite database instead of failing: write transactions take
#: the lock when they begin and wait up to 20 s for it; readers never wait (WAL).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL",
}


def database_from_environment() -> dict[str, Any]:
    """SQLite next to manage.py, or the database `DATABASE_URL` names."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        database = {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
    else:
        try:
            import dj_database_url
        except ImportError as exc:
            raise ImproperlyConfigured(
                "DATABASE_URL is set, which needs dj-database-url: "
                'pip install dj-database-url "psycopg[binary]" (or: pip install -e ".[test]").'
            ) from exc
        database = dj_database_url.parse(url)
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = {**SQLITE_OPTIONS, **database.get("OPTIONS", {})}
    return database


DATABASES = {"default": database_from_environment()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "index"
LOGOUT_REDIRECT_URL = "index"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"

DJANGO_SERVICES = {
    "SERVICES": {
        "todos": "todos.services.TodoService",
        "api/v1/messages": "chat.services.MessageService",
        "users": "accounts.services.UserService",
        "users/:userId/notes": "notes.services.NoteService",
    },
    "AUTHENTICATION": {
        "SECRET": os.environ.get(
            "JWT_SECRET", "example-project-jwt-secret-replace-it-with-your-own-random-value"
        ),
        # "session" lets the page Django renders for a logged-in user fetch a token; "refresh"
        # answers a refresh token with each login, which the page trades for a new access
        # token before the old one expires, so its user stays logged in.
        "AUTH_STRATEGIES": ["local", "jwt", "session", "refresh"],
        # Short-lived access tokens (15 minutes), long-lived refresh tokens (14 days).
        "JWT": {"EXPIRES_IN": int(os.environ.get("JWT_EXPIRES_IN", 15 * 60))},
        "REFRESH": {"EXPIRES_IN": 14 * 86400},
        "THROTTLE_RATE": "60/min",
    },
    # Live events over socket.io: a connection that logs in joins `authenticated` and
    # `users/<its user id>`, and an event goes to `authenticated` unless its service publishes
    # it elsewhere (todos and notes: their owner's connections only).
    "SOCKETIO_PUBLISHER": "django_services.server.socketio.Publisher",
    # A socket whose connection was lost less than WINDOW seconds ago gets the events it
    # missed when it reconnects (socket.io's connection state recovery); after a longer
    # outage the page reads its todos and messages again.
    "SOCKETIO_RECOVERY": {"WINDOW": int(os.environ.get("SOCKETIO_RECOVERY_WINDOW", 120))},
}

REST_FRAMEWORK = {
    # How many proxies in front of Django append to X-Forwarded-For (0: none, as here); the
    # login throttle counts by the address they saw, never by a header a client wrote. uvicorn
    # itself takes the client address from X-Forwarded-For when the connection comes from
    # 127.0.0.1 (its --forwarded-allow-ips), which is harmless on this loopback-only demo;
    # see docs/deployment.md, "Client addresses behind proxies".
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
}

# The schema of every service at /api/schema/, Swagger UI at /api/docs/, Redoc at /api/redoc/.
SPECTACULAR_SETTINGS = {
    **SPECTACULAR_DEFAULTS,
    "TITLE": "django-feathers example",
    "DESCRIPTION": "Todos, a chat and notes, served as Feathers services.",
    "VERSION": "1.0.0",
}

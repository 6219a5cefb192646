"""
Django is configured here, without a settings module: SQLite in memory by default,
PostgreSQL (or any database) when `DATABASE_URL` is set.

`TEST_DATABASE_NAME` names the test database, so two runs against one server can coexist.
"""

from __future__ import annotations

import os

import pytest

# The remotes' fixtures serve tests in several folders (the client, its bridges, the commands,
# the middleware, the testing helpers, the cold starts); `no_tracebacks` any module that asks.
pytest_plugins = ["tests.remotes.fixtures", "tests.tracebacks"]


def pytest_configure(config):
    from django.conf import settings

    database = {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    if os.environ.get("DATABASE_URL"):
        import dj_database_url

        database = dj_database_url.parse(os.environ["DATABASE_URL"])
    if os.environ.get("TEST_DATABASE_NAME"):
        database["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

    settings.configure(
        DEBUG=False,
        SECRET_KEY="django-services-tests-secret-key-that-is-long-enough-for-hs256",
        ALLOWED_HOSTS=["*"],
        DATABASES={"default": database},
        INSTALLED_APPS=[
            "django.contrib.contenttypes",
            "django.contrib.auth",
            "django.contrib.sessions",
            "rest_framework",
            "django_services",
            "tests.testapp",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
        ],
        ROOT_URLCONF="tests.urls",
        # pytest-django's live_server wraps the project in a static files handler that needs it.
        STATIC_URL="/static/",
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "APP_DIRS": True,
            }
        ],
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
        USE_TZ=True,
        TIME_ZONE="UTC",
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        AUTH_USER_MODEL="testapp.User",
        DJANGO_SERVICES={},
    )


@pytest.fixture(scope="session", autouse=True)
def json_field_support_known(django_db_setup, django_db_blocker):
    """
    Ask the database once whether it supports JSON fields, as newer Django's model checks do.

    The system checks' tests run the checks without database access; the answer is kept on
    the connection, so that whichever test of a worker process comes first has it.
    """
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            assert isinstance(connection.features.supports_json_field, bool)


@pytest.fixture(scope="session", autouse=True)
def end_stray_database_sessions(django_db_setup, django_db_blocker):
    """
    On PostgreSQL, end the test database's other sessions before it is dropped.

    Threads of the servers the tests start (live servers, ASGI servers, sync_to_async
    executors) keep their own Django connections, which nothing closes when a thread is left
    idle; PostgreSQL refuses to drop a database that a session still uses.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def manual_clock():
    """The package's clock, standing still until the test moves it on with `advance()`."""
    from django_services import clock

    with clock.replaced(clock.ManualClock()) as manual:
        yield manual

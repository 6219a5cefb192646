"""
Fixtures of the remotes tests: the project calls itself over loopback (pytest-django's
live_server), each remote alias with one credential bridge.

`kind` is parametrized over the four connection kinds; `harness.call(lambda: ...)` runs a call
to completion whatever the kind (inside an event loop of its own for the async ones, where
services must be made in the loop that awaits them).
"""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from django_services.client.remotes import remotes
from django_services.testing import in_process_remotes  # noqa: F401 - the fixture
from tests.harness import join_live_server_threads

KINDS = ("requests", "httpx", "httpx-async", "aiohttp")
ASYNC_KINDS = ("httpx-async", "aiohttp")

SECRET = "a-secret-shared-by-both-sides-of-the-remotes-tests-hs256"
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
SERVICE_EMAIL = "robot@example.com"
SERVICE_PASSWORD = "the service account's long password"
PASSWORD_VARIABLE = "DJANGO_SERVICES_TEST_REMOTE_PASSWORD"
TOKEN_VARIABLE = "DJANGO_SERVICES_TEST_REMOTE_TOKEN"

_HERE = "tests.remotes.services."
SERVICES = {
    "caller": _HERE + "CallerService",
    "echo": _HERE + "EchoService",
    "rejecting": _HERE + "RejectingService",
    "racing": _HERE + "RacingService",
}

MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_services.middleware.RemotesMiddleware",
]

LOGIN_AUTH = {
    "STRATEGY": "local",
    "CREDENTIALS": {"email": SERVICE_EMAIL},
    "CREDENTIALS_ENV": {"password": PASSWORD_VARIABLE},
    "EXPIRY_MARGIN": 60,
}


def remotes_settings(
    base_url: str,
    kind: str = "requests",
    authentication: dict[str, Any] | None = None,
    **changes: Any,
) -> dict[str, Any]:
    """
    `DJANGO_SERVICES` with one remote per bridge, all reaching `base_url` with `kind`.

    `authentication` adds keys to the server's `AUTHENTICATION`; `changes` replace options
    of remotes by alias.
    """

    def remote(auth: Any) -> dict[str, Any]:
        return {"BASE_URL": base_url, "CONNECTION": kind, "AUTH": auth}

    remote_settings = {
        "plain": remote(None),
        "bearer": remote({"STRATEGY": "forward-bearer"}),
        "session": remote({"STRATEGY": "forward-session"}),
        "token": remote({"STRATEGY": "token", "TOKEN_ENV": TOKEN_VARIABLE}),
        "login": remote(LOGIN_AUTH),
    }
    for alias, change in changes.items():
        remote_settings[alias] = {**remote_settings.get(alias, {}), **change}
    return {
        "SERVICES": SERVICES,
        "AUTHENTICATION": {
            "SECRET": SECRET,
            "SERVICE_CLASS": _HERE + "CountingAuthenticationService",
            **(authentication or {}),
        },
        "REMOTES": remote_settings,
    }


class Harness:
    """Runs remote calls of one connection kind to completion."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.is_async = kind in ASYNC_KINDS
        self.loop = asyncio.new_event_loop() if self.is_async else None

    def call(self, make: Any) -> Any:
        """Run `make()` (which makes the service and calls it) and return the result."""
        if not self.is_async:
            result = make()
            assert not inspect.isawaitable(result), f"{self.kind} call returned an awaitable"
            return result

        async def run() -> Any:
            pending = make()
            assert inspect.iscoroutine(pending), f"{self.kind} call returned {pending!r}"
            return await pending

        return self.loop.run_until_complete(run())

    def close(self) -> None:
        if self.loop is not None:
            self.loop.run_until_complete(remotes.aclose_all())
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()
        remotes.close_all()


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def harness(kind: str) -> Iterator[Harness]:
    harness = Harness(kind)
    yield harness
    harness.close()


@pytest.fixture(scope="session")
def _drain_live_server(live_server: Any) -> Iterator[None]:
    yield
    remotes.close_all()
    join_live_server_threads()


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service account's password in the environment."""
    monkeypatch.setenv(PASSWORD_VARIABLE, SERVICE_PASSWORD)


@pytest.fixture
def live_remotes(settings: Any, live_server: Any, kind: str, _drain_live_server: None) -> Any:
    """The remotes of `remotes_settings()`, reaching the live server with `kind`."""
    from django.core.cache import caches

    from .services import LOGINS

    caches["default"].clear()
    settings.ROOT_URLCONF = "tests.remotes.urls"
    settings.MIDDLEWARE = MIDDLEWARE
    settings.DJANGO_SERVICES = remotes_settings(live_server.url, kind)
    LOGINS.clear()
    yield settings
    LOGINS.clear()
    remotes.close_all()
    caches["default"].clear()


@pytest.fixture
def configure_remotes(settings: Any, live_server: Any, kind: str) -> Any:
    """
    Change the settings: `configure_remotes(login={"AUTH": {...}})` replaces a remote's
    options, `configure_remotes(authentication={"SECRET": ...})` the server's.
    """

    def apply(**changes: Any) -> None:
        settings.DJANGO_SERVICES = remotes_settings(live_server.url, kind, **changes)

    return apply


@pytest.fixture
def users(transactional_db: None, environment: None) -> dict[str, Any]:
    """A person who calls views, and the service account remotes log in with."""
    from tests.testapp.models import User

    return {
        "person": User.objects.create_user(email=EMAIL, password=PASSWORD),
        "robot": User.objects.create_user(email=SERVICE_EMAIL, password=SERVICE_PASSWORD),
    }


@pytest.fixture
def person_token(users: dict[str, Any], live_remotes: Any) -> str:
    """An access token of the person, as the live server issues it."""
    from django_services.server.authentication import create_access_token

    return create_access_token(str(users["person"].pk))


@pytest.fixture
def static_token(users: dict[str, Any], live_remotes: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """A token of the service account in the environment, for the `token` remote."""
    from django_services.server.authentication import create_access_token

    token = create_access_token(str(users["robot"].pk))
    monkeypatch.setenv(TOKEN_VARIABLE, token)
    return token


@pytest.fixture
def run_id() -> str:
    """A prefix of this run's keys in shared stores (Redis)."""
    return f"django-services-tests-{uuid.uuid4().hex}"

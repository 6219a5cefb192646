"""
One example server for the whole session: migrated, seeded and run as its README says.

The example throttles the authentication service to 60 requests a minute per address. The
tests log in about 25 times in all: use the session-wide accounts (`demo`, `friend`) where a
fresh user (`newcomer`) is not needed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from django_services.client import App, authentication_client, rest_client

from .browser import CHROMIUM, Chromium
from .project import ExampleDatabase, ExampleServer, manage

DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "feathers-on-django"
FRIEND_EMAIL = "friend@example.com"
#: The password of the accounts the tests sign up.
NEW_PASSWORD = "granite orbit lantern"

#: The methods of the todos service, its custom one included.
REMOTE_METHODS = ["find", "get", "create", "update", "patch", "remove", "markAllComplete"]

_emails = itertools.count(1)


@pytest.fixture(scope="session")
def example_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExampleServer]:
    """The example on a database of its own, migrated and seeded, run as its README says."""
    directory = tmp_path_factory.mktemp("example")
    database = ExampleDatabase.create(directory, "example")
    try:
        manage("migrate", "--noinput", database=database)
        manage("seed_demo", database=database)
        server = ExampleServer(database, directory / "server.log").start()
        try:
            yield server
        finally:
            server.stop()
        log = server.log()
        assert "Traceback" not in log and "Internal Server Error" not in log, log
    finally:
        database.drop()


@pytest.fixture
async def browser(tmp_path: Any) -> Any:
    """A page of headless Chromium on a profile of its own (the tests using it skip without)."""
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed")
    profile = tmp_path / "profile"
    profile.mkdir()
    async with Chromium(CHROMIUM, profile) as page:
        yield page


@dataclass
class Account:
    """A user of the example, and a client app logged in as that user."""

    app: App
    user: dict[str, Any]

    @property
    def id(self) -> int:
        return self.user["id"]


@pytest.fixture(scope="session")
def connect(example_server: ExampleServer) -> Iterator[Callable[..., App]]:
    """
    `connect()`: a new client app of the example, not logged in, over a new requests
    session (or over `connect(session)`, to share its cookies).
    """
    sessions: list[requests.Session] = []

    def connect(session: requests.Session | None = None) -> App:
        if session is None:
            session = requests.Session()
            sessions.append(session)
        app = App()
        app.configure(rest_client(example_server.url).requests(session))
        app.configure(authentication_client())
        app.use("todos", app.connection.service("todos"), methods=REMOTE_METHODS)
        return app

    yield connect
    for session in sessions:
        session.close()


@pytest.fixture(scope="session")
def log_in(connect: Callable[..., App]) -> Callable[[str, str], Account]:
    """`log_in(email, password)`: an account logged in with the local strategy."""

    def log_in(email: str, password: str) -> Account:
        app = connect()
        result = app.authenticate({"strategy": "local", "email": email, "password": password})
        return Account(app, result["user"])

    return log_in


@pytest.fixture(scope="session")
def demo(log_in: Callable[[str, str], Account]) -> Account:
    """The seeded demo user."""
    return log_in(DEMO_EMAIL, DEMO_PASSWORD)


@pytest.fixture(scope="session")
def friend(log_in: Callable[[str, str], Account]) -> Account:
    """The seeded second user."""
    return log_in(FRIEND_EMAIL, DEMO_PASSWORD)


@pytest.fixture
def sign_up(connect: Callable[..., App]) -> Callable[[], dict[str, Any]]:
    """`sign_up()`: a new account made through the public users service, and its password."""

    def sign_up() -> dict[str, Any]:
        email = f"user{next(_emails)}@example.org"
        user = connect().service("users").create({"email": email, "password": NEW_PASSWORD})
        return {**user, "password": NEW_PASSWORD}

    return sign_up


@pytest.fixture
def newcomer(
    log_in: Callable[[str, str], Account], sign_up: Callable[[], dict[str, Any]]
) -> Account:
    """A user who just signed up and logged in, with no data yet."""
    user = sign_up()
    return log_in(user["email"], user["password"])

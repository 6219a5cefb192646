"""
The authentication client (CONTRACT section 8) against scripted answers of a real HTTP server,
with each of the four connection kinds.
"""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.cache import SessionStore
from django.core.cache import caches

from django_services.client import (
    App,
    AsyncAuthenticationClient,
    AuthenticationClient,
    CacheStorage,
    MemoryStorage,
    SessionStorage,
    authentication_client,
)
from django_services.errors import GeneralError, NotAuthenticated, Unavailable

from .wire import Reply


def login_reply(token: str = "T1") -> Reply:
    return Reply(
        201,
        {
            "accessToken": token,
            "authentication": {"strategy": "local", "payload": {"sub": "1"}},
            "user": {"id": 1, "email": "ada@example.com"},
        },
    )


def unauthenticated(message: str = "Invalid login", **extra) -> Reply:
    body = {"name": "NotAuthenticated", "message": message, "code": 401,
            "className": "not-authenticated", **extra}  # fmt: skip
    return Reply(401, body)


LOCAL = {"strategy": "local", "email": "ada@example.com", "password": "secret"}


def make_app(harness, wire, **options):
    app = harness.app(wire.url)
    app.configure(authentication_client(**options))
    return app


def test_client_class_follows_the_connection(harness, wire):
    app = make_app(harness, wire)

    expected = AsyncAuthenticationClient if harness.is_async else AuthenticationClient
    assert type(app.authentication) is expected


def test_authenticate_stores_the_token_and_sends_it_with_later_calls(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("T1"))

    result = harness.run(app.authenticate(LOCAL))
    harness.run(app.service("messages").find())
    harness.run(app.service("messages").find(headers={"authorization": "Custom xyz"}))

    login, found, overridden = wire.requests
    assert (login.method, login.target) == ("POST", "/authentication")
    assert login.json() == LOCAL
    assert login.header("Authorization") is None
    assert result["accessToken"] == "T1"
    assert result["user"] == {"id": 1, "email": "ada@example.com"}
    assert storage.get("feathers-jwt") == "T1"
    assert found.header("Authorization") == "Bearer T1"
    assert overridden.header("Authorization") == "Custom xyz"


def test_header_scheme_path_and_storage_key_are_options(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage, storage_key="svc-token", path="/api/login/",
                   header="X-Token", scheme="JWT")  # fmt: skip
    wire.reply(login_reply("T2"))

    harness.run(app.authenticate(LOCAL))
    harness.run(app.service("messages").get(1))

    assert wire.requests[0].target == "/api/login"
    assert wire.requests[1].header("X-Token") == "JWT T2"
    assert wire.requests[1].header("Authorization") is None
    assert storage.get("svc-token") == "T2"


def test_re_authenticate_reuses_the_result_unless_forced(harness, wire):
    app = make_app(harness, wire)
    wire.reply(login_reply("T1"), login_reply("T1"))
    first = harness.run(app.authenticate(LOCAL))

    again = harness.run(app.re_authenticate())
    assert again == first
    assert len(wire.requests) == 1

    harness.run(app.re_authenticate(force=True))
    assert wire.last.json() == {"strategy": "jwt", "accessToken": "T1"}
    assert wire.last.header("Authorization") is None


def test_re_authenticate_with_a_stored_token(harness, wire):
    storage = MemoryStorage()
    storage.set("feathers-jwt", "STORED")
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("STORED"))

    harness.run(app.authenticate())  # no data: the same as re_authenticate()
    harness.run(app.service("messages").find())

    assert wire.requests[0].json() == {"strategy": "jwt", "accessToken": "STORED"}
    assert wire.requests[1].header("Authorization") == "Bearer STORED"


def test_re_authenticate_without_a_token(harness, wire):
    app = make_app(harness, wire)

    with pytest.raises(NotAuthenticated, match="No accessToken found in storage"):
        harness.run(app.re_authenticate())

    assert wire.requests == []


def test_authentication_errors_remove_the_stored_token(harness, wire):
    storage = MemoryStorage()
    storage.set("feathers-jwt", "EXPIRED")
    app = make_app(harness, wire, storage=storage)
    wire.reply(unauthenticated("jwt expired", data={"name": "TokenExpiredError"}))

    with pytest.raises(NotAuthenticated) as caught:
        harness.run(app.re_authenticate())

    assert caught.value.data == {"name": "TokenExpiredError"}
    assert storage.get("feathers-jwt") is None
    assert not app.authentication.authenticated


def test_other_errors_keep_the_stored_token(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("T1"), Reply(500, {"name": "GeneralError", "message": "down"}))
    harness.run(app.authenticate(LOCAL))

    with pytest.raises(GeneralError):
        harness.run(app.re_authenticate(force=True))

    assert storage.get("feathers-jwt") == "T1"
    assert not app.authentication.authenticated
    harness.run(app.service("messages").find())
    assert wire.last.header("Authorization") is None


def test_failed_login_forgets_the_previous_one(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("T1"), unauthenticated())
    harness.run(app.authenticate(LOCAL))

    with pytest.raises(NotAuthenticated, match="Invalid login"):
        harness.run(app.authenticate({**LOCAL, "password": "wrong"}))

    assert storage.get("feathers-jwt") is None
    harness.run(app.service("messages").find())
    assert wire.last.header("Authorization") is None


def test_result_without_a_token_is_not_authenticated(harness, wire):
    app = make_app(harness, wire)
    wire.reply(Reply(201, {"user": {"id": 1}}))

    with pytest.raises(NotAuthenticated, match="no accessToken"):
        harness.run(app.authenticate({}))  # only None means "with the stored token"

    assert wire.last.body == b"{}"
    assert not app.authentication.authenticated


def test_logout_deletes_on_the_server_and_forgets_the_token(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("T1"), Reply(200, {"accessToken": "T1", "user": {"id": 1}}))
    harness.run(app.authenticate(LOCAL))

    result = harness.run(app.logout())
    harness.run(app.service("messages").find())

    logout, found = wire.requests[1:]
    assert (logout.method, logout.target) == ("DELETE", "/authentication")
    assert logout.header("Authorization") == "Bearer T1"
    assert result == {"accessToken": "T1", "user": {"id": 1}}
    assert storage.get("feathers-jwt") is None
    assert found.header("Authorization") is None


def test_logout_when_not_logged_in(harness, wire):
    storage = MemoryStorage()
    storage.set("feathers-jwt", "OLD")
    app = make_app(harness, wire, storage=storage)

    assert harness.run(app.logout()) is None
    assert storage.get("feathers-jwt") is None
    assert wire.requests == []


def test_logout_refused_by_the_server(harness, wire):
    storage = MemoryStorage()
    app = make_app(harness, wire, storage=storage)
    wire.reply(login_reply("T1"), unauthenticated("jwt expired"))
    harness.run(app.authenticate(LOCAL))

    assert harness.run(app.logout()) is None
    assert storage.get("feathers-jwt") is None

    wire.reply(login_reply("T2"), Reply(503, {"name": "Unavailable", "message": "down"}))
    harness.run(app.authenticate(LOCAL))
    with pytest.raises(Unavailable):
        harness.run(app.logout())
    assert storage.get("feathers-jwt") == "T2"


def test_memory_storage_is_per_app(harness, wire):
    configure = authentication_client()
    first = harness.app(wire.url).configure(configure)
    second = harness.app(wire.url).configure(configure)
    wire.reply(login_reply("T1"))

    harness.run(first.authenticate(LOCAL))

    assert first.authentication.storage is not second.authentication.storage
    with pytest.raises(NotAuthenticated, match="No accessToken"):
        harness.run(second.re_authenticate())


@pytest.mark.parametrize("storage", ["cache-storage", "django-cache"])
def test_cache_storage_is_shared_across_apps(harness, wire, storage):
    caches["default"].delete("svc-jwt")
    shared = CacheStorage("default") if storage == "cache-storage" else caches["default"]
    first = make_app(harness, wire, storage=shared, storage_key="svc-jwt")
    second = make_app(harness, wire, storage=shared, storage_key="svc-jwt")
    wire.reply(login_reply("SHARED"), login_reply("SHARED"))

    harness.run(first.authenticate(LOCAL))
    harness.run(second.re_authenticate())

    assert caches["default"].get("svc-jwt") == "SHARED"
    assert wire.last.json() == {"strategy": "jwt", "accessToken": "SHARED"}
    harness.run(second.logout())
    assert caches["default"].get("svc-jwt") is None


def test_session_storage(harness, wire):
    session = SessionStore()
    app = make_app(harness, wire, storage=SessionStorage(session))
    wire.reply(login_reply("IN-SESSION"))

    harness.run(app.authenticate(LOCAL))
    assert session["feathers-jwt"] == "IN-SESSION"

    harness.run(app.logout())
    assert "feathers-jwt" not in session


def test_configuration_order_and_missing_configuration(harness, wire):
    with pytest.raises(RuntimeError, match="Configure a REST connection before"):
        App().configure(authentication_client())
    with pytest.raises(RuntimeError, match="Authentication is not configured"):
        harness.app(wire.url).authenticate(LOCAL)


class RecordingStorage(MemoryStorage):
    """A memory storage that records each operation, as the sync and async clients make them."""

    def __init__(self):
        super().__init__()
        self.log = []

    def get(self, key):
        self.log.append(("get", key))
        return super().get(key)

    def set(self, key, value):
        self.log.append(("set", key, value))
        super().set(key, value)

    def delete(self, key):
        self.log.append(("delete", key))
        super().delete(key)


def test_sync_and_async_clients_take_the_same_steps(harness, wire):
    storage = RecordingStorage()
    storage.set("feathers-jwt", "EXPIRED")
    storage.log.clear()
    app = make_app(harness, wire, storage=storage)
    wire.reply(unauthenticated("jwt expired"), login_reply("T1"), Reply(200, {"accessToken": "T1"}))

    with pytest.raises(NotAuthenticated):
        harness.run(app.re_authenticate())
    harness.run(app.authenticate(LOCAL))
    harness.run(app.logout())

    assert storage.log == [
        ("get", "feathers-jwt"),
        ("delete", "feathers-jwt"),
        ("set", "feathers-jwt", "T1"),
        ("delete", "feathers-jwt"),
        ("delete", "feathers-refresh"),
    ]
    assert [request.method for request in wire.requests] == ["POST", "POST", "DELETE"]


def test_a_subclass_flow_is_a_step_of_every_flow(harness, wire):
    handled = []
    base = AsyncAuthenticationClient if harness.is_async else AuthenticationClient

    # One override, written once for the blocking and the async client.
    class Recording(base):
        def handle_error_flow(self, error):
            handled.append(error.code)
            yield from super().handle_error_flow(error)

    app = make_app(harness, wire, client_class=Recording)
    wire.reply(unauthenticated(), Reply(503, {"name": "Unavailable", "message": "down"}))

    with pytest.raises(NotAuthenticated):
        harness.run(app.authenticate(LOCAL))
    with pytest.raises(Unavailable):
        harness.run(app.authenticate(LOCAL))
    with pytest.raises(NotAuthenticated):
        harness.run(app.re_authenticate())

    assert handled == [401, 503, 401]

"""
The login strategy over real HTTP: the service account's token lives in Django's cache, is
reused until `exp` minus the margin, and a 401 logs in again once and retries once.
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from django_services.client.remotes import RemoteHandler, remotes
from django_services.clock import ManualClock
from django_services.errors import NotAuthenticated
from django_services.server.authentication import create_access_token, verify_access_token
from tests.remotes.fixtures import LOGIN_AUTH, SERVICE_EMAIL, remotes_settings
from tests.remotes.services import LOGINS, RACE

pytestmark = pytest.mark.usefixtures("live_remotes", "users")


def cached_token(remote):
    bridge = remote.bridge
    return caches[bridge.cache_alias].get(bridge.cache_key(bridge.login_data()))


def store_token(remote, token):
    bridge = remote.bridge
    caches[bridge.cache_alias].set(bridge.cache_key(bridge.login_data()), token)


def test_the_token_is_kept_in_the_cache(harness):
    answer = harness.call(lambda: remotes["login"].service("caller").find())

    token = cached_token(remotes["login"])
    assert answer["authorization"] == f"Bearer {token}"
    assert verify_access_token(token)["sub"] == str(remotes_user_pk())


def remotes_user_pk():
    from tests.testapp.models import User

    return User.objects.get(email=SERVICE_EMAIL).pk


@pytest.mark.parametrize("kind", ["requests", "aiohttp"])
def test_a_token_is_replaced_before_it_expires(harness, configure_remotes):
    configure_remotes(
        authentication={"JWT": {"EXPIRES_IN": 3600}},
        login={"AUTH": {**LOGIN_AUTH, "EXPIRY_MARGIN": 60}},
    )
    clock = ManualClock()
    remotes["login"].clock = clock

    first = harness.call(lambda: remotes["login"].service("caller").find())
    clock.advance(3600 - 60 - 30)
    again = harness.call(lambda: remotes["login"].service("caller").find())
    clock.advance(30 + 5)
    later = harness.call(lambda: remotes["login"].service("caller").find())

    assert len(LOGINS) == 2
    assert first["authorization"] == again["authorization"] != later["authorization"]
    # The first token was still valid: it was replaced because of the margin.
    verify_access_token(first["authorization"].split()[1])


def test_an_expired_token_in_the_cache_is_replaced_after_one_401(harness, configure_remotes):
    configure_remotes(authentication={"JWT": {"EXPIRES_IN": -10}})
    expired = create_access_token(str(remotes_user_pk()))
    configure_remotes()
    store_token(remotes["login"], expired)

    answer = harness.call(lambda: remotes["login"].service("caller").find())

    assert answer["email"] == SERVICE_EMAIL
    assert len(LOGINS) == 1
    fresh = cached_token(remotes["login"])
    assert fresh != expired
    assert answer["authorization"] == f"Bearer {fresh}"


def test_a_token_the_remote_stopped_accepting_is_replaced(harness, configure_remotes):
    harness.call(lambda: remotes["login"].service("caller").find())
    # The remote rotates its secret: the cached token no longer verifies.
    configure_remotes(authentication={"SECRET": "a-new-secret-of-the-remote-" * 2})

    answer = harness.call(lambda: remotes["login"].service("caller").find())

    assert answer["email"] == SERVICE_EMAIL
    assert len(LOGINS) == 2


def test_a_second_401_is_raised_after_one_new_login(harness):
    harness.call(lambda: remotes["login"].service("caller").find())

    with pytest.raises(NotAuthenticated, match="refuses every token"):
        harness.call(lambda: remotes["login"].service("rejecting").find())

    assert len(LOGINS) == 2


def test_a_token_another_caller_replaced_is_used_without_logging_in(harness):
    harness.call(lambda: remotes["login"].service("caller").find())
    refused = cached_token(remotes["login"])
    replacement = create_access_token(str(remotes_user_pk()))
    bridge = remotes["login"].bridge
    RACE.update(
        refuse=refused,
        replacement=replacement,
        cache=bridge.cache_alias,
        key=bridge.cache_key(bridge.login_data()),
    )
    try:
        answer = harness.call(lambda: remotes["login"].service("racing").find())
    finally:
        RACE.clear()

    assert answer["authorization"] == f"Bearer {replacement}"
    assert len(LOGINS) == 1


def test_wrong_credentials_raise_and_store_nothing(harness, monkeypatch):
    monkeypatch.setenv(LOGIN_AUTH["CREDENTIALS_ENV"]["password"], "not the password")

    with pytest.raises(NotAuthenticated, match="Invalid login"):
        harness.call(lambda: remotes["login"].service("caller").find())

    assert cached_token(remotes["login"]) is None


def test_credentials_the_caller_passes_win(harness, person_token):
    answer = harness.call(
        lambda: (
            remotes["login"]
            .service("caller")
            .find(headers={"Authorization": f"Bearer {person_token}"})
        )
    )

    assert answer["authorization"] == f"Bearer {person_token}"
    assert len(LOGINS) == 0


def test_changed_credentials_use_another_cache_entry(harness, configure_remotes):
    harness.call(lambda: remotes["login"].service("caller").find())
    before = remotes["login"].bridge.cache_key(remotes["login"].bridge.login_data())
    configure_remotes(login={"AUTH": {**LOGIN_AUTH, "CREDENTIALS": {"email": "ADA@example.com"}}})

    after = remotes["login"].bridge.cache_key(remotes["login"].bridge.login_data())

    assert before != after
    assert cached_token(remotes["login"]) is None


def test_a_token_without_exp_is_kept_for_the_cache_default():
    bridge = remotes["login"].bridge

    assert bridge.cache_timeout("an-opaque-token", time.time()) is DEFAULT_TIMEOUT
    assert bridge.cache_timeout("not.a.jwt", time.time()) is DEFAULT_TIMEOUT


@pytest.fixture
def redis_caches(settings, run_id):
    """Two cache aliases on one Redis, as two processes configure the same cache."""
    redis = pytest.importorskip("redis")
    location = "redis://127.0.0.1:6379/0"
    client = redis.Redis.from_url(location, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.exceptions.RedisError:
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    backend = "django.core.cache.backends.redis.RedisCache"
    settings.CACHES = {
        **settings.CACHES,
        "process-a": {"BACKEND": backend, "LOCATION": location, "KEY_PREFIX": run_id},
        "process-b": {"BACKEND": backend, "LOCATION": location, "KEY_PREFIX": run_id},
    }
    yield ("process-a", "process-b")
    # Only this run's keys: the Redis database is shared (cache.clear() would empty it).
    for key in client.scan_iter(f"{run_id}:*"):
        client.delete(key)
    client.close()


@pytest.mark.parametrize("kind", ["requests", "httpx-async"])
def test_two_processes_share_one_login_through_the_cache(harness, live_server, redis_caches):
    def process(cache_alias):
        auth = {**LOGIN_AUTH, "CACHE": cache_alias}
        remote_settings = remotes_settings(live_server.url, harness.kind, login={"AUTH": auth})
        return RemoteHandler(remote_settings["REMOTES"])

    first, second = process("process-a"), process("process-b")
    try:
        by_first = harness.call(lambda: first["login"].service("caller").find())
        by_second = harness.call(lambda: second["login"].service("caller").find())
    finally:
        if harness.is_async:
            harness.loop.run_until_complete(first.aclose_all())
            harness.loop.run_until_complete(second.aclose_all())
        first.close_all()
        second.close_all()

    assert first["login"] is not second["login"]
    assert by_first["authorization"] == by_second["authorization"]
    assert len(LOGINS) == 1
    assert cached_token(second["login"]) == by_first["authorization"].split()[1]


REFRESH_ON = {"AUTH_STRATEGIES": ["local", "jwt", "refresh"]}


def forget_token(remote):
    """What the end of the cache entry's timeout does: the access token is gone."""
    bridge = remote.bridge
    caches[bridge.cache_alias].delete(bridge.cache_key(bridge.login_data()))


def refresh_key(remote):
    bridge = remote.bridge
    return bridge.cache_key(bridge.login_data()) + ".refresh"


def test_with_refresh_tokens_the_token_is_refreshed_before_logging_in_again(
    harness, configure_remotes
):
    configure_remotes(authentication=REFRESH_ON)
    first = harness.call(lambda: remotes["login"].service("caller").find())
    forget_token(remotes["login"])
    second = harness.call(lambda: remotes["login"].service("caller").find())

    assert [entry["strategy"] for entry in LOGINS.entries] == ["local", "refresh"]
    assert first["authorization"] != second["authorization"]
    assert second["authorization"] == f"Bearer {cached_token(remotes['login'])}"


def test_an_expired_token_is_refreshed_after_its_401(harness, configure_remotes):
    configure_remotes(authentication=REFRESH_ON)
    harness.call(lambda: remotes["login"].service("caller").find())
    configure_remotes(authentication={**REFRESH_ON, "JWT": {"EXPIRES_IN": -10}})
    expired = create_access_token(str(remotes_user_pk()))
    configure_remotes(authentication=REFRESH_ON)
    store_token(remotes["login"], expired)

    answer = harness.call(lambda: remotes["login"].service("caller").find())

    assert answer["email"] == SERVICE_EMAIL
    assert [entry["strategy"] for entry in LOGINS.entries] == ["local", "refresh"]


def test_a_refused_refresh_logs_in_with_the_credentials(harness, configure_remotes):
    configure_remotes(authentication=REFRESH_ON)
    harness.call(lambda: remotes["login"].service("caller").find())
    spent = caches["default"].get(refresh_key(remotes["login"]))
    forget_token(remotes["login"])
    harness.call(lambda: remotes["login"].service("caller").find())
    # Another host still holding the spent token: the remote refuses it, and ends the login.
    caches["default"].set(refresh_key(remotes["login"]), spent)
    forget_token(remotes["login"])

    answer = harness.call(lambda: remotes["login"].service("caller").find())

    assert answer["email"] == SERVICE_EMAIL
    assert [entry["strategy"] for entry in LOGINS.entries] == ["local", "refresh", "local"]

"""
The circuit breaker of a remote, seen from a view: an upstream that refuses connections, one
that accepts them and never answers, one that answers 503 with `Retry-After`. Once the breaker
is open the view's call fails at once; after the upstream returns and the open time has passed
(on the remote's manual clock), one trial call closes it. Sync and async views, REST and
socket.io remotes, against our own server over loopback.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.test import AsyncClient, Client

from django_services.client.breaker import Breaker, BreakerConfig
from django_services.client.remote_settings import read_remote, remote_problems
from django_services.client.remotes import remotes
from django_services.clock import ManualClock
from django_services.errors import Unavailable
from tests.remotes.fixtures import MIDDLEWARE
from tests.server.socketio.conftest import SECRET, SERVICES, LiveSocketServer

from .proxy import Proxy
from .upstream import FAILING

KINDS = ("requests", "httpx-async", "socketio", "socketio-async")
FAULTS = ("refused", "silent", "503")
FAILURES = 2
OPEN_SECONDS = 0.5

pytestmark = pytest.mark.django_db(transaction=True)


class Caller:
    """Requests the view that calls the remote `up`: a sync view, or an async one."""

    def __init__(self, kind: str) -> None:
        self.is_async = kind.endswith("async")
        self.loop = asyncio.new_event_loop() if self.is_async else None

    def view(self, headers: dict[str, str] | None = None) -> tuple[int, dict, float]:
        """(status, JSON, seconds the view's call of the remote took) of one request."""
        if not self.is_async:
            response = Client().get("/views/up/flaky/", headers=headers or {})
        else:

            async def request():
                try:
                    return await AsyncClient().get("/async-views/up/flaky/", headers=headers or {})
                finally:
                    # The database work of async requests runs in asgiref's thread for sync
                    # code: close its connections there, or the test database can not be dropped.
                    await sync_to_async(connections.close_all)()

            response = self.loop.run_until_complete(request())
        return response.status_code, response.json(), float(response["X-Call-Seconds"])

    def close(self) -> None:
        if self.loop is not None:
            self.loop.run_until_complete(remotes.aclose_all())
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()
        remotes.close_all()


def configure(settings, base_url: str, kind: str, read: float = 0.3, **breaker) -> None:
    settings.ROOT_URLCONF = "tests.client.upstream"
    settings.MIDDLEWARE = MIDDLEWARE
    options = {"reconnection_delay": 0.05, "reconnection_delay_max": 0.1}
    settings.DJANGO_SERVICES = {
        "SERVICES": {**SERVICES, "flaky": "tests.client.upstream.FlakyService"},
        "AUTHENTICATION": {"SECRET": SECRET, "ENTITY": "user", "ENTITY_SERVICE": "users"},
        "REMOTES": {
            "up": {
                "BASE_URL": base_url,
                "CONNECTION": kind,
                "OPTIONS": options if kind.startswith("socketio") else {},
                "TIMEOUT": {"CONNECT": 1, "READ": read},
                "BREAKER": {"FAILURES": FAILURES, "OPEN_SECONDS": OPEN_SECONDS, **breaker},
            }
        },
    }


@pytest.fixture(params=KINDS)
def kind(request):
    return request.param


@pytest.fixture
def caller(kind):
    caller = Caller(kind)
    yield caller
    caller.close()


@pytest.fixture
def upstream(transactional_db):
    server = LiveSocketServer()  # bound, not yet listening: connections are refused
    yield server
    FAILING.clear()
    remotes.close_all()
    server.stop()


class Fault:
    """Makes the upstream fail one way, and mends it."""

    def __init__(self, fault: str, server: LiveSocketServer) -> None:
        self.fault = fault
        self.server = server
        self.proxy = None if fault == "refused" else Proxy(server.url).start()
        self.url = server.url if self.proxy is None else self.proxy.url
        if fault != "refused":
            server.start()

    def start(self) -> None:
        if self.fault == "silent":
            self.proxy.hold()
        elif self.fault == "503":
            FAILING.set()

    def mend(self) -> None:
        if self.fault == "refused":
            self.server.start()
        elif self.fault == "silent":
            self.proxy.release()
        else:
            FAILING.clear()

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()


@pytest.mark.parametrize("fault", FAULTS)
def test_a_view_fails_fast_while_the_upstream_is_down_and_recovers_after(
    settings, kind, caller, upstream, fault
):
    failing = Fault(fault, upstream)
    configure(settings, failing.url, kind)
    remote = remotes["up"]
    remote.clock = clock = ManualClock()
    try:
        if fault != "refused":
            assert caller.view()[0] == 200  # connected, and well
        failing.start()

        statuses = [caller.view()[0] for _ in range(FAILURES)]
        status, error, seconds = caller.view()

        # 408 for a call left unanswered; 503 for a refused connection or a 503 answer.
        assert statuses == [408 if fault == "silent" else 503] * FAILURES
        assert status == 503
        assert seconds < 0.05, f"the open breaker took {seconds * 1000:.0f} ms"
        assert error["name"] == "Unavailable"
        assert "circuit breaker open" in error["message"]
        assert error["data"] == {"retryAfter": 1, "remote": "up"}
        assert remote.breaker.state == "open"

        failing.mend()
        # The upstream is back, but the breaker stays open for its time: still at once.
        status, _, seconds = caller.view()
        assert status == 503
        assert seconds < 0.05, f"the open breaker took {seconds * 1000:.0f} ms"
        clock.advance(OPEN_SECONDS)
        if fault == "503":
            # The upstream's Retry-After (1 s) is longer than OPEN_SECONDS: it is the floor.
            status, error, seconds = caller.view()
            assert (status, error["data"]["retryAfter"], seconds < 0.05) == (503, 1, True)
            clock.advance(0.5)

        answers = [caller.view()[0] for _ in range(3)]
        assert answers == [200, 200, 200]
        assert remote.breaker.state == "closed"
    finally:
        failing.stop()


@pytest.mark.parametrize("kind", ["requests", "httpx-async"])
def test_half_open_lets_one_trial_through_while_concurrent_calls_fail_fast(
    settings, kind, caller, upstream
):
    upstream.start()
    proxy = Proxy(upstream.url).start()
    configure(settings, proxy.url, kind, read=10)
    remote = remotes["up"]
    remote.clock = clock = ManualClock()
    try:
        proxy.down()
        for _ in range(FAILURES):
            with pytest.raises(Unavailable):
                call(caller, remote)
        proxy.up()
        proxy.hold()  # the trial's answer waits in the proxy
        proxy.forget_sent()
        clock.advance(OPEN_SECONDS)

        if not caller.is_async:
            with concurrent.futures.ThreadPoolExecutor(9) as pool:
                trial = pool.submit(remote.service("flaky").find)
                proxy.wait_for_sent(b"GET /flaky")
                others = [pool.submit(remote.service("flaky").find) for _ in range(8)]
                refused = [future.exception(10) for future in others]
                assert remote.breaker.state == "half-open"
                proxy.release()
                answer = trial.result(10)
        else:

            async def calls():
                trial = asyncio.ensure_future(remote.service("flaky").find())
                await asyncio.to_thread(proxy.wait_for_sent, b"GET /flaky")
                others = [remote.service("flaky").find() for _ in range(8)]
                refused = await asyncio.gather(*others, return_exceptions=True)
                assert remote.breaker.state == "half-open"
                proxy.release()
                return refused, await trial

            refused, answer = caller.loop.run_until_complete(calls())

        assert all(isinstance(error, Unavailable) for error in refused), refused
        assert all("circuit breaker open" in error.message for error in refused)
        assert answer["query"] == {}
        assert remote.breaker.state == "closed"
        assert call(caller, remote)["query"] == {}
    finally:
        proxy.stop()


def call(caller, remote):
    """One call of `flaky` on the remote, to completion, sync or async."""
    if not caller.is_async:
        return remote.service("flaky").find()

    async def find():
        return await remote.service("flaky").find()

    return caller.loop.run_until_complete(find())


@pytest.mark.parametrize("kind", ["requests"])
def test_a_4xx_never_opens_the_breaker(settings, caller, upstream):
    upstream.start()
    configure(settings, upstream.url, "requests")
    client = Client()

    statuses = [client.get("/views/up/secrets/").status_code for _ in range(FAILURES + 2)]

    assert statuses == [401] * (FAILURES + 2)
    assert remotes["up"].breaker.state == "closed"
    assert remotes["up"].breaker.failures == 0


@pytest.mark.parametrize("kind", ["requests"])
def test_a_failed_trial_opens_the_breaker_again(settings, caller, upstream):
    configure(settings, upstream.url, "requests")  # refused: the server is not listening
    remote = remotes["up"]
    remote.clock = clock = ManualClock()
    for _ in range(FAILURES):
        assert caller.view()[0] == 503
    clock.advance(OPEN_SECONDS)

    trial = caller.view()
    after = caller.view()

    assert "circuit breaker" not in trial[1]["message"]  # the trial was sent, and refused
    assert "circuit breaker" in after[1]["message"] and after[2] < 0.05
    assert remote.breaker.state == "open"


@pytest.mark.parametrize("kind", ["requests"])
def test_the_breaker_is_shared_through_a_cache(settings, caller, upstream):
    configure(settings, upstream.url, "requests", CACHE="default")
    remote = remotes["up"]
    remote.clock = ManualClock()
    for _ in range(FAILURES):
        assert caller.view()[0] == 503

    # Another process: the same settings, a breaker of its own, the cache in common.
    other = remotes["up"].__class__(read_remote("up", settings.DJANGO_SERVICES["REMOTES"]["up"]))
    other.clock = ManualClock()
    try:
        assert other.breaker.state == "closed"
        with pytest.raises(Unavailable, match="circuit breaker open"):
            other.service("flaky").find()
        assert other.breaker.state == "open"
    finally:
        other.close()
        remotes.reset_breakers()


@pytest.mark.parametrize("kind", ["requests"])
def test_reset_breakers_closes_them(settings, caller, upstream):
    configure(settings, upstream.url, "requests")
    for _ in range(FAILURES):
        caller.view()
    assert remotes["up"].breaker.state == "open"

    remotes.reset_breakers()
    upstream.start()

    assert caller.view()[0] == 200


def test_breaker_settings_are_checked():
    base = {"BASE_URL": "http://billing.internal"}

    assert read_remote("billing", base).breaker == BreakerConfig()
    assert read_remote("billing", {**base, "BREAKER": False}).breaker is None
    config = read_remote("billing", {**base, "BREAKER": {"FAILURES": 3, "OPEN_SECONDS": 5}})
    assert (config.breaker.failures, config.breaker.open_seconds) == (3, 5.0)
    for wrong, words in (
        ({"FAILURES": 0}, "failures must be a positive number"),
        ({"FAILURES": 1.5}, "failures must be a whole number"),
        ({"OPEN_SECONDS": "soon"}, "open_seconds must be a number"),
        ({"CACHE": "nowhere"}, "'nowhere', which is not a cache of CACHES"),
        ({"FAILURE": 3}, "FAILURE"),
        ("on", "must be a dict or False"),
    ):
        with pytest.raises(ImproperlyConfigured, match=words):
            read_remote("billing", {**base, "BREAKER": wrong})
    assert remote_problems("billing", {**base, "PROPAGATE": "yes"})[0].id == (
        "django_services.E205"
    )


def test_a_remote_without_a_breaker_has_none():
    remote = remotes.__class__({"raw": {"BASE_URL": "http://x.internal", "BREAKER": False}})
    assert remote["raw"].breaker is None
    assert "closed" in repr(Breaker("x"))

"""
`HTTPCache` on each of the four REST connection kinds, against the project's own server: a
repeated read sends `If-None-Match`, the server answers 304 without building the body, the
client returns the copy; a write elsewhere shows on the next read; users never share a copy.
"""

from __future__ import annotations

import threading

import pytest

from django_services.client import MemoryStorage, authentication_client, etag_of
from django_services.client.cache import HTTPCache
from django_services.client.remotes import remotes
from django_services.errors import NotModified, Unavailable
from tests.client import cache_services
from tests.client.cache_services import BODIES, REQUESTS, observed
from tests.harness import connection_per_request_thread

pytest.importorskip("hishel", reason="the cache extra: pip install -e '.[test]'")

EMAIL, OTHER, PASSWORD = "ada@example.com", "bob@example.com", "a-long-password-1"


@pytest.fixture
def url(live_services, transactional_db, live_server, settings):
    services = settings.DJANGO_SERVICES["SERVICES"]
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SERVICES": {**services, "counted": cache_services.__name__ + ".CountedVersionedService"},
    }
    with observed():
        yield live_server.url


def sent(path):
    """The If-None-Match of each request the server saw for `path`."""
    return [validator for seen, validator, _ in REQUESTS if seen == path]


def test_a_repeated_get_is_answered_from_the_copy_on_a_304(harness, url):
    cache = HTTPCache()
    counted = harness.app(url, {"cache": cache}).service("counted")
    writer = harness.app(url).service("counted")
    created = harness.run(writer.create({"text": "buy eggs"}))
    id = created["id"]
    BODIES.clear()

    first = harness.run(counted.get(id))
    again = harness.run(counted.get(id))

    assert again == first == created
    assert etag_of(again) == etag_of(created) == '"1"'
    assert sent(f"/counted/{id}") == [None, '"1"']
    assert [*BODIES] == [id]  # the second answer was a 304: no body built

    harness.run(writer.patch(id, {"text": "buy bread"}))
    changed = harness.run(counted.get(id))
    assert (changed["text"], etag_of(changed)) == ("buy bread", '"2"')
    assert sent(f"/counted/{id}")[-1] == '"1"'
    assert harness.run(counted.get(id)) == changed
    assert sent(f"/counted/{id}")[-1] == '"2"'


def test_a_repeated_find_revalidates_and_a_write_through_the_cache_is_seen(harness, url):
    counted = harness.app(url, {"cache": HTTPCache()}).service("counted")
    created = harness.run(counted.create({"text": "buy eggs"}))

    listed = harness.run(counted.find(query={"text": "buy eggs"}))
    assert harness.run(counted.find(query={"text": "buy eggs"})) == listed == [created]
    assert sent("/counted?text=buy%20eggs")[1] is not None

    harness.run(counted.patch(created["id"], {"text": "buy milk"}))
    assert harness.run(counted.get(created["id"]))["text"] == "buy milk"
    assert harness.run(counted.find(query={"text": "buy eggs"})) == []


def test_a_call_sending_its_own_validator_still_gets_not_modified(harness, url):
    counted = harness.app(url, {"cache": HTTPCache()}).service("counted")
    created = harness.run(counted.create({"text": "draft"}))
    harness.run(counted.get(created["id"]))

    error = harness.raises(
        NotModified,
        lambda: counted.get(created["id"], headers={"If-None-Match": etag_of(created)}),
    )
    assert error.code == 304


@pytest.fixture
def users(transactional_db):
    from tests.testapp.models import User

    return [User.objects.create_user(email=email, password=PASSWORD) for email in (EMAIL, OTHER)]


def test_two_users_never_see_each_other_s_copy(harness, url, users):
    cache = HTTPCache()  # one cache, as a remote's connections share theirs
    apps = []
    for email in (EMAIL, OTHER):
        app = harness.app(url, {"cache": cache})
        app.configure(authentication_client(storage=MemoryStorage()))
        harness.run(app.authenticate({"strategy": "local", "email": email, "password": PASSWORD}))
        apps.append(app)
    ada, bob = (app.service("whoami") for app in apps)

    assert harness.run(ada.find())["email"] == EMAIL
    assert harness.run(ada.find())["email"] == EMAIL
    assert harness.run(bob.find())["email"] == OTHER
    assert harness.run(bob.find())["email"] == OTHER

    seen = [
        (validator, authorization)
        for path, validator, authorization in REQUESTS
        if path == "/whoami"
    ]
    tokens = [authorization for _, authorization in seen]
    assert tokens[0] == tokens[1] != tokens[2] == tokens[3]
    # Bob's first read carried no validator: Ada's copy was not his to revalidate.
    assert [validator is not None for validator, _ in seen] == [False, True, False, True]


def test_the_cache_is_for_rest_connections_and_takes_an_http_cache(harness, url):
    with pytest.raises(TypeError, match="HTTPCache"):
        harness.connect(url, {"cache": True})
    with pytest.raises(ValueError, match="max_size"):
        HTTPCache(max_size=0)


def test_a_file_cache_keeps_the_copies_for_the_next_cache_on_that_file(harness, url, tmp_path):
    path = tmp_path / "cache.sqlite3"
    created = harness.run(harness.app(url).service("counted").create({"text": "draft"}))
    first = harness.app(url, {"cache": HTTPCache(path)}).service("counted")
    harness.run(first.get(created["id"]))
    later = harness.app(url, {"cache": HTTPCache(path)}).service("counted")

    assert harness.run(later.get(created["id"])) == created
    assert sent(f"/counted/{created['id']}") == [None, '"1"']


def test_a_remote_s_connections_share_the_cache_of_its_options(url, settings):
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "REMOTES": {"self": {"BASE_URL": url, "OPTIONS": {"cache": True}}},
    }
    try:
        counted = remotes["self"].service("counted")
        created = counted.create({"text": "draft"})
        counted.get(created["id"])
        elsewhere = []
        thread = threading.Thread(
            target=lambda: elsewhere.append(remotes["self"].service("counted").get(created["id"]))
        )
        thread.start()
        thread.join(30)
        connection = remotes["self"].connection
    finally:
        remotes.close_all()

    assert elsewhere == [created]
    assert isinstance(connection.cache, HTTPCache)
    # The other thread's connection revalidated the copy this thread's stored.
    assert sent(f"/counted/{created['id']}") == [None, '"1"']


@pytest.fixture
def own_connections(live_server):
    """Concurrent readers, served by request threads with a database connection each."""
    with connection_per_request_thread(live_server):
        yield


def test_threads_reading_through_one_cache_at_once_each_get_the_record(url, own_connections):
    from tests.harness import ClientHarness

    cache = HTTPCache()
    harness = ClientHarness("requests")
    try:
        services = [harness.app(url, {"cache": cache}).service("counted") for _ in range(6)]
        created = services[0].create({"text": "draft"})
        start = threading.Barrier(len(services))
        results: list[object] = []
        retried: list[object] = []

        def read(service):
            start.wait()
            for _ in range(5):
                try:
                    results.append(service.get(created["id"]))
                except Unavailable:
                    # The test server's in-memory SQLite locks a table another of its threads
                    # reads at that moment: the server answers 503, the read goes again.
                    retried.append(service)
                    results.append(service.get(created["id"]))

        threads = [threading.Thread(target=read, args=(service,)) for service in services]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        harness.close()

    assert results == [created] * 30
    # A body was built (after the create's) for each read that came without a validator, and
    # once a copy was stored the reads revalidated it.
    unvalidated = sent(f"/counted/{created['id']}").count(None)
    assert len(BODIES) - 1 <= unvalidated <= len(BODIES) - 1 + len(retried)
    assert unvalidated < 30 + len(retried)

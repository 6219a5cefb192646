"""
`remotes[alias]`: made once on first use, one pooled connection per thread and per event loop,
settings read again when they change, `close_all()`, and `request.remotes`.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
import requests
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.utils.connection import ConnectionDoesNotExist

from django_services.client import RestService, Retries, TimeoutConfig
from django_services.client.remotes import (
    BoundRemote,
    RemoteDoesNotExist,
    RemoteHandler,
    RequestRemotes,
    remotes,
)
from django_services.middleware import RemotesMiddleware


class InvoiceService(RestService):
    """A service class of the project's own for a remote service."""

    def unpaid(self):
        return self.find(query={"paid": False})


REMOTES = {
    "billing": {
        "BASE_URL": "https://billing.example.com/api/",
        "OPTIONS": {"headers": {"X-Api-Version": "2"}, "verify": False},
        "TIMEOUT": {"CONNECT": 2, "READ": 5},
        "RETRIES": {"TOTAL": 2, "BACKOFF_FACTOR": 0.1},
        "SERVICES": {
            "invoices": {"class": f"{__name__}.InvoiceService", "methods": ["find", "send"]},
            "/customers/": {"methods": ["find", "merge"], "if_match": True},
        },
    },
    "shop": {"BASE_URL": "http://shop.internal:8000", "CONNECTION": "httpx"},
    "events": {"BASE_URL": "http://events.internal", "CONNECTION": "httpx-async"},
    "feed": {"BASE_URL": "http://feed.internal", "CONNECTION": "aiohttp"},
    "people": {
        "BASE_URL": "http://people.internal",
        "AUTH": {"STRATEGY": "forward-bearer"},
    },
}


@pytest.fixture(autouse=True)
def configured(settings):
    settings.DJANGO_SERVICES = {"REMOTES": REMOTES}
    yield
    remotes.close_all()


def test_a_remote_is_made_once_on_first_use():
    assert remotes.all(initialized_only=True) == []

    billing = remotes["billing"]

    assert remotes["billing"] is billing
    assert remotes.all(initialized_only=True) == [billing]
    assert list(remotes) == list(REMOTES)
    assert billing.alias == "billing"
    assert billing.config.base_url == "https://billing.example.com/api"


def test_an_unknown_alias_names_the_configured_ones():
    with pytest.raises(RemoteDoesNotExist) as raised:
        remotes["biling"]

    assert isinstance(raised.value, ConnectionDoesNotExist)
    assert str(raised.value) == (
        "The remote 'biling' does not exist. DJANGO_SERVICES['REMOTES'] configures: "
        "'billing', 'shop', 'events', 'feed', 'people'."
    )


def test_a_misconfigured_remote_fails_when_used_naming_the_setting(settings):
    settings.DJANGO_SERVICES = {"REMOTES": {**REMOTES, "broken": {"BASE_URL": "billing"}}}

    with pytest.raises(ImproperlyConfigured) as raised:
        remotes["broken"]

    assert "DJANGO_SERVICES['REMOTES']['broken']['BASE_URL'] is not a valid URL" in str(
        raised.value
    )
    assert "django_services.E203" in str(raised.value)
    assert remotes["billing"].alias == "billing"


def test_the_settings_reach_the_connection_and_its_services():
    billing = remotes["billing"]
    connection = billing.connection
    invoices = billing.service("invoices")
    customers = billing.service("customers")

    assert isinstance(connection.client, requests.Session)
    assert connection.client.verify is False
    assert connection.headers == {"X-Api-Version": "2"}
    assert connection.timeout == TimeoutConfig(connect=2, read=5)
    assert connection.retries == Retries(total=2, backoff_factor=0.1)
    assert isinstance(invoices, InvoiceService)
    assert invoices.methods == ("find", "send")
    assert customers.methods == ("find", "merge")
    assert (invoices.etags, customers.etags.field) == (None, True)
    assert type(customers) is RestService
    assert invoices.base == "https://billing.example.com/api/invoices"
    assert billing.service("invoices") is invoices


def test_each_thread_has_its_own_pooled_connection():
    main = remotes["shop"].connection
    seen = []
    thread = threading.Thread(target=lambda: seen.append(remotes["shop"].connection))
    thread.start()
    thread.join()

    assert remotes["shop"].connection is main
    assert seen[0] is not main
    assert not remotes["shop"].is_async


@pytest.mark.parametrize("alias", ["events", "feed"])
def test_each_event_loop_has_its_own_pooled_connection(alias):
    async def connections():
        remote = remotes[alias]
        first, second = await asyncio.gather(
            asyncio.sleep(0, remote.connection), asyncio.sleep(0, remote.connection)
        )
        await remotes.aclose_all()
        return first, second

    first_loop = asyncio.run(connections())
    second_loop = asyncio.run(connections())

    assert remotes[alias].is_async
    assert first_loop[0] is first_loop[1]
    assert second_loop[0] is not first_loop[0]


@pytest.mark.parametrize("alias", ["events", "feed"])
def test_an_async_remote_is_used_inside_an_event_loop(alias):
    with pytest.raises(RuntimeError, match=f"The remote '{alias}' has an async connection"):
        remotes[alias].service("events")


def test_close_all_closes_the_connections_and_later_calls_open_new_ones():
    client = remotes["shop"].connection.client

    remotes.close_all()

    assert client.is_closed
    assert remotes["shop"].connection.client is not client


def test_close_all_closes_async_connections_in_their_idle_loop():
    loop = asyncio.new_event_loop()
    try:

        async def open_session():
            return remotes["feed"].connection.client

        session = loop.run_until_complete(open_session())
        remotes.close_all()

        assert session.closed
    finally:
        loop.close()


async def test_aclose_all_closes_the_running_loop_s_connections():
    client = remotes["events"].connection.client

    await remotes.aclose_all()

    assert client.is_closed


def test_changing_the_settings_replaces_the_remotes():
    shop = remotes["shop"]
    client = shop.connection.client

    changed = {**REMOTES, "shop": {"BASE_URL": "https://shop.example.org"}}
    with override_settings(DJANGO_SERVICES={"REMOTES": changed}):
        assert client.is_closed
        assert remotes["shop"] is not shop
        assert remotes["shop"].config.base_url == "https://shop.example.org"

    assert remotes["shop"].config.base_url == "http://shop.internal:8000"


def test_a_handler_of_its_own_settings():
    handler = RemoteHandler({"own": {"BASE_URL": "http://own.internal"}})
    own = handler["own"]

    handler.reset()

    assert handler["own"] is not own
    assert list(handler) == ["own"]
    with pytest.raises(RemoteDoesNotExist, match="configures: 'own'"):
        handler["billing"]


def test_a_bound_remote_shares_the_pooled_connection():
    request = RequestFactory().get("/", headers={"Authorization": "Bearer abc"})
    people = remotes["people"]

    bound = people.for_request(request)
    service = bound.service("people")

    assert isinstance(bound, BoundRemote)
    assert service.connection is people.connection
    assert service.app.get_request_headers("people", "find") == {"Authorization": "Bearer abc"}
    assert people.service("people").app.get_request_headers("people", "find") == {}
    assert bound.for_request(RequestFactory().get("/")).credentials is None
    assert "with credentials" in repr(bound)
    assert "abc" not in repr(bound)


def test_request_remotes_bind_each_remote_once():
    request = RequestFactory().get("/", headers={"Authorization": "Bearer abc"})
    bound = RequestRemotes(request)

    assert bound["people"] is bound["people"]
    assert bound["people"].credentials == "abc"
    assert bound["billing"] is remotes["billing"]
    assert "billing" in bound
    assert "elsewhere" not in bound
    assert list(bound) == list(REMOTES)


def test_the_middleware_sets_request_remotes():
    seen = []

    def view(request):
        seen.append(request.remotes)
        return HttpResponse()

    RemotesMiddleware(view)(RequestFactory().get("/", headers={"Authorization": "Bearer x"}))

    assert isinstance(seen[0], RequestRemotes)
    assert seen[0]["people"].credentials == "x"


async def test_the_middleware_is_async_capable():
    async def view(request):
        return HttpResponse(request.remotes["people"].credentials)

    middleware = RemotesMiddleware(view)
    response = await middleware(RequestFactory().get("/", headers={"Authorization": "Bearer y"}))

    assert response.content == b"y"

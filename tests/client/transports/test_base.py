"""
One plug-in point for an HTTP library: a `Transport` subclass. `rest_client(url).connect()`
takes it with a client of yours; a remote's `CONNECTION` names it, and it opens its own client.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

import pytest

from django_services.client import App, rest_client
from django_services.client.checks import check_remotes
from django_services.client.remotes import remotes
from django_services.client.transports import Request, Response, Transport, TransportFailure
from tests.remotes.fixtures import (
    MIDDLEWARE,
    SERVICES,
    _drain_live_server,  # noqa: F401 - the fixture
)


class UrllibTransport(Transport):
    """A connection over the standard library's urllib: sync services."""

    name = "urllib"
    library = "urllib"
    #: Every opener closed through a connection, for the tests to see.
    closed: list[Any] = []

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> urllib.request.OpenerDirector:
        return urllib.request.build_opener(*client_options.get("handlers", ()))

    @classmethod
    def option_names(cls) -> frozenset[str]:
        return frozenset({"handlers"})

    def send(self, request: Request) -> Response:
        sent = urllib.request.Request(
            request.url, data=request.body, headers=dict(request.headers), method=request.method
        )
        try:
            with self.client.open(sent, timeout=self.timeout.read) as answer:
                return Response(answer.status, answer.reason, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, error.reason, error.headers, error.read())
        except urllib.error.URLError as error:
            raise TransportFailure(request, error) from error

    def close(self) -> None:
        self.closed.append(self.client)
        super().close()


class WithoutClient(Transport):
    """A connection that can only be given a client: it can not be named in settings."""

    def send(self, request: Request) -> Response:
        raise AssertionError("never sent")


@pytest.fixture
def urllib_remote(settings, live_server, _drain_live_server):  # noqa: F811
    settings.ROOT_URLCONF = "tests.remotes.urls"
    settings.MIDDLEWARE = MIDDLEWARE
    settings.DJANGO_SERVICES = {
        "SERVICES": SERVICES,
        "REMOTES": {
            "plain": {
                "BASE_URL": live_server.url,
                "CONNECTION": f"{__name__}.UrllibTransport",
                "OPTIONS": {"headers": {"Authorization": "Bearer from-settings"}},
            }
        },
    }
    UrllibTransport.closed.clear()
    yield remotes["plain"]
    remotes.close_all()


def test_a_connection_of_ones_own_is_named_in_settings_and_opens_its_client(urllib_remote):
    echoed = urllib_remote.service("echo").find()

    assert echoed["authorization"] == "Bearer from-settings"
    connection = urllib_remote.connection
    assert type(connection) is UrllibTransport
    assert isinstance(connection.client, urllib.request.OpenerDirector)


def test_closing_the_remote_closes_the_client_the_connection_opened(urllib_remote):
    urllib_remote.service("echo").find()
    opener = urllib_remote.connection.client

    remotes.close_all()

    assert UrllibTransport.closed == [opener]
    assert urllib_remote.connection.client is not opener  # the next call opens anew


def test_a_connection_of_ones_own_is_connected_with_a_client_of_yours(live_server, settings):
    settings.ROOT_URLCONF = "tests.remotes.urls"
    settings.DJANGO_SERVICES = {"SERVICES": SERVICES}
    opener = urllib.request.build_opener()

    connection = rest_client(live_server.url).connect(
        UrllibTransport, opener, options={"headers": {"Authorization": "Bearer mine"}}
    )
    app = App().configure(connection)

    assert app.service("echo").find()["authorization"] == "Bearer mine"
    assert connection.client is opener


def test_a_remote_error_comes_back_as_the_feathers_error(urllib_remote):
    from django_services.errors import NotFound

    with pytest.raises(NotFound):
        urllib_remote.service("nowhere").find()


def test_settings_refuse_a_connection_that_can_not_make_its_client(settings):
    settings.DJANGO_SERVICES = {
        "REMOTES": {
            "billing": {
                "BASE_URL": "https://billing.example.com",
                "CONNECTION": f"{__name__}.WithoutClient",
            }
        }
    }

    messages = check_remotes()

    assert [message.id for message in messages] == ["django_services.E204"]
    assert "can not open connections from settings" in messages[0].msg
    assert "create_client()" in messages[0].hint


def test_settings_check_the_options_a_connection_takes(settings):
    settings.DJANGO_SERVICES = {
        "REMOTES": {
            "billing": {
                "BASE_URL": "https://billing.example.com",
                "CONNECTION": f"{__name__}.UrllibTransport",
                "OPTIONS": {"verify": False},
            }
        }
    }

    messages = check_remotes()

    assert [message.id for message in messages] == ["django_services.E202"]
    assert "'verify'" in messages[0].msg

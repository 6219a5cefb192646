"""
`rest(base)`, Feathers' name of `rest_client(base)`, and its handlers taking
`(connection, options, Service)` by position, as Feathers' do, against the project's own server.
"""

from __future__ import annotations

import aiohttp
import httpx
import pytest
import requests

from django_services import client
from django_services.client import App, AsyncRestService, RestService, rest, rest_client

pytestmark = pytest.mark.usefixtures("live_services")

OPTIONS = {"headers": {"X-Api-Version": "7"}, "timeout": 5}


class Mine(RestService):
    """A service class of one's own."""


class AsyncMine(AsyncRestService):
    """An async service class of one's own."""


def test_rest_is_rest_client():
    assert rest is rest_client
    assert client.rest is client.rest_client
    assert "rest" in client.__all__


@pytest.mark.parametrize("library", ["requests", "httpx"])
def test_a_handler_takes_options_and_the_service_class_by_position(live_server, library):
    with requests.Session() if library == "requests" else httpx.Client() as session:
        handler = getattr(rest(live_server.url), library)
        app = App().configure(handler(session, OPTIONS, Mine))
        echo = app.service("echo")

        assert isinstance(echo, Mine)
        assert echo.find()["headers"]["x-api-version"] == "7"


@pytest.mark.parametrize("library", ["httpx", "aiohttp"])
async def test_an_async_handler_takes_options_and_the_service_class_by_position(
    live_server, library
):
    async with httpx.AsyncClient() if library == "httpx" else aiohttp.ClientSession() as session:
        handler = getattr(rest(live_server.url), library)
        app = App().configure(handler(session, OPTIONS, AsyncMine))
        echo = app.service("echo")

        assert isinstance(echo, AsyncMine)
        assert (await echo.find())["headers"]["x-api-version"] == "7"


def test_positional_and_keyword_arguments_are_the_same_connection(live_server):
    with requests.Session() as session:
        by_position = rest(live_server.url).requests(session, OPTIONS, Mine)
        by_keyword = rest_client(live_server.url).requests(
            session, options=OPTIONS, service_class=Mine
        )

    assert by_position.options == by_keyword.options == OPTIONS
    assert by_position.service_class is by_keyword.service_class is Mine

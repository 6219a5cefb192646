"""The App, the transport and its connections: registration, options and their validation."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import aiohttp
import httpx
import pytest
import requests

import django_services.client as client
from django_services.client import (
    App,
    AsyncRestService,
    RestService,
    Retries,
    TimeoutConfig,
    rest_client,
)


def isort_style(name):
    """Constants, then classes, then functions, each alphabetically (ruff's RUF022)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def test_exported_names_are_sorted_and_public():
    assert client.__all__ == sorted(client.__all__, key=isort_style)
    for name in client.__all__:
        assert hasattr(client, name)
    assert client.errors.NotFound.code == 404
    assert client.App.__module__ == "django_services.client"
    assert client.rest_client.__module__ == "django_services.client"


def test_configuring_a_second_connection_fails(harness, wire):
    app = harness.app(wire.url)

    with pytest.raises(RuntimeError, match="Only one default client provider"):
        app.configure(harness.connect(wire.url))


def test_service_registers_the_default_service_once(harness, wire):
    app = harness.app(wire.url)

    service = app.service("/api/v1/messages/")

    assert app.service("api/v1/messages") is service
    assert app.services == {"api/v1/messages": service}
    assert service.app is app
    assert isinstance(service, AsyncRestService if harness.is_async else RestService)
    assert app.is_async is harness.is_async


def test_service_without_a_connection():
    with pytest.raises(LookupError, match="Can not find service 'todos'"):
        App().service("todos")


def test_use_registers_a_copy_with_custom_methods(harness, wire):
    app = harness.app(wire.url)
    plain = app.connection.service("todos")

    assert app.use("todos", plain, methods=["find", "markAllComplete"]) is app

    registered = app.service("todos")
    assert registered is not plain
    assert registered.methods == ("find", "markAllComplete")
    assert registered.custom_methods == ("markAllComplete",)
    assert "markAllComplete" in dir(registered)
    assert callable(registered.markAllComplete)
    with pytest.raises(AttributeError):
        plain.markAllComplete  # noqa: B018
    with pytest.raises(AttributeError):
        registered.undeclared  # noqa: B018
    assert app.unuse("/todos") is registered
    assert app.services == {}


@pytest.mark.parametrize("name", ["bind", "connection", "base", "_private", "build_request"])
def test_custom_method_names_may_not_shadow_the_service(harness, wire, name):
    app = harness.app(wire.url)

    with pytest.raises(ValueError, match=f"'{name}' on service 'todos' is not allowed"):
        app.use("todos", app.connection.service("todos"), methods=[name])


def test_local_services_are_registered_as_they_are():
    local = object()
    app = App().use("local", local)

    assert app.service("local") is local
    with pytest.raises(TypeError, match="remote services"):
        app.use("other", local, methods=["x"])


def test_service_class_is_used_for_every_service(harness, wire):
    base = AsyncRestService if harness.is_async else RestService

    class Versioned(base):
        def build_request(self, method, params=None, **kwargs):
            params = {**(params or {}), "headers": {"X-Version": "2"}}
            return super().build_request(method, params, **kwargs)

    connection = harness.connect(wire.url, {"headers": {"X-A": "1"}}, Versioned)
    app = App().configure(connection)

    harness.run(app.service("todos").find())

    assert isinstance(app.service("todos"), Versioned)
    assert wire.last.header("X-Version") == "2"
    assert wire.last.header("X-A") == "1"


def test_service_class_must_match_the_connection(harness, wire):
    wrong = RestService if harness.is_async else AsyncRestService

    with pytest.raises(TypeError, match="service_class must be a subclass"):
        harness.connect(wire.url, service_class=wrong)


def test_a_class_in_place_of_options_is_the_service_class():
    class Mine(RestService):
        pass

    with requests.Session() as session:
        connection = rest_client("http://api").requests(session, service_class=Mine)

    assert connection.service_class is Mine
    assert connection.options == {}


def test_connection_options():
    with requests.Session() as session:
        connection = rest_client("http://api/").requests(
            session, options={"headers": {"X-A": "1"}, "timeout": 3, "retries": 2}
        )
        default = rest_client("http://api").requests(session)

        assert connection.base == "http://api"
        assert connection.timeout == TimeoutConfig(connect=3, read=3)
        assert connection.retries == Retries(total=2)
        assert default.timeout == client.DEFAULT_TIMEOUT
        assert default.retries is None
        with pytest.raises(ValueError, match="Unknown connection option 'timout'"):
            rest_client("http://api").requests(session, options={"timout": 3})
        with pytest.raises(TypeError, match="headers"):
            rest_client("http://api").requests(session, options={"headers": ["X-A"]})
        with pytest.raises(ValueError, match="can not wait forever"):
            rest_client("http://api").requests(session, options={"timeout": float("inf")})


def test_handlers_check_what_they_are_given():
    with httpx.Client() as sync_client:
        with pytest.raises(TypeError, match=r"requests\.Session"):
            rest_client("http://api").requests(object())
        with pytest.raises(TypeError, match="`requests` has to be provided"):
            rest_client("http://api").requests(None)
        with pytest.raises(TypeError, match=r"httpx\.Client or httpx\.AsyncClient"):
            rest_client("http://api").httpx(requests)
        with pytest.raises(TypeError, match=r"aiohttp\.ClientSession"):
            rest_client("http://api").aiohttp(sync_client)
        with pytest.raises(TypeError, match="base must be a URL"):
            rest_client(None)
        assert rest_client("http://api").requests(requests).client is requests


def test_params_must_be_dicts(harness, wire):
    todos = harness.connect(wire.url).service("todos")

    with pytest.raises(TypeError, match="params must be a dict"):
        harness.run(todos.find("query"))
    with pytest.raises(TypeError, match=r"params\['query'\] must be a dict"):
        harness.run(todos.find(query=[("a", 1)]))
    assert wire.requests == []


def test_reprs():
    with requests.Session() as session:
        connection = rest_client("http://api").requests(session)
        app = App().configure(connection)
        app.service("todos")

        assert repr(rest_client("http://api")) == "<RestClient base='http://api'>"
        assert repr(connection) == "<RequestsTransport base='http://api'>"
        assert repr(app.service("todos")) == "<RestService 'todos' base='http://api/todos'>"
        assert repr(app) == "<App services=['todos']>"


def test_import_needs_no_settings_httpx_or_aiohttp():
    script = textwrap.dedent(
        """
        import sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("httpx", "aiohttp"):
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)

        sys.meta_path.insert(0, Block())
        import requests
        from django_services.client import App, errors, rest_client

        app = App().configure(rest_client("http://127.0.0.1:9").requests(requests.Session()))
        request = app.service("todos").build_request("get", {"query": {"a": 1}}, id=1)
        assert request.url == "http://127.0.0.1:9/todos/1?a=1", request.url
        for handler in ("httpx", "aiohttp"):
            try:
                getattr(rest_client(""), handler)(None)
            except ImportError as error:
                assert f"pip install 'django-feathers[{handler}]'" in str(error), error
            else:
                raise AssertionError(handler)
        django_conf = sys.modules.get("django.conf")
        assert django_conf is None or not django_conf.settings.configured
        print("ok")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )

    assert result.stdout.strip() == "ok", result.stderr


def test_async_session_objects_are_accepted_only_by_async_handlers():
    async def make():
        return aiohttp.ClientSession()

    import asyncio

    loop = asyncio.new_event_loop()
    try:
        session = loop.run_until_complete(make())
        connection = rest_client("http://api").aiohttp(session)
        assert connection.is_async
        assert isinstance(connection.service("todos"), AsyncRestService)
        loop.run_until_complete(session.close())
    finally:
        loop.close()

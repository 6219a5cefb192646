"""
Test helpers: call the project's own services in-process, with no network.

    # conftest.py
    pytest_plugins = ["django_services.testing"]

    def test_invoice_page(in_process_remotes, client):
        in_process_remotes("billing")          # REMOTES["billing"] now calls this project
        assert client.get("/invoices/").status_code == 200

    app.configure(InProcessTransport(Client(), base="http://testserver"))   # without settings

`InProcessTransport` (and `AsyncInProcessTransport`) send each request through Django's test
`Client` (`AsyncClient`) into the project's URLconf and middleware, as a server would receive
it: with the request's headers only (never the test client's cookies), CSRF checks enforced,
`https` URLs as secure requests. The host of the URL is ignored: requests go to `testserver`.
`IN_PROCESS` and `ASYNC_IN_PROCESS` name them in a remote's `CONNECTION`.

A project that serves no services of its own (it only calls remote ones) need not mount
`django_services.urls` for its stand-ins: `in_process_remote()` serves the services at its
`base_url`, after the project's own URLs, while the block lasts.
"""

from __future__ import annotations

import contextlib
import copy
import types
from collections.abc import Callable, Iterator, Mapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.test import AsyncClient, Client, override_settings

from .client._base import Request, Response
from .client.remotes import Remote, remotes
from .client.transports.base import AsyncTransport, Transport
from .conf import SETTINGS_NAME

__all__ = [
    "ASYNC_IN_PROCESS",
    "IN_PROCESS",
    "AsyncInProcessTransport",
    "InProcessTransport",
    "in_process_remote",
    "in_process_remotes",
]

#: The base URL of the project's services mounted at the root, as the test client reaches them.
TEST_SERVER = "http://testserver"


def _arguments(request: Request) -> tuple[str, dict[str, Any]]:
    """The path and the keyword arguments of the test client's `generic()` for `request`."""
    url = urlsplit(request.url)
    headers = {}
    content_type = "application/octet-stream"
    for name, value in request.headers.items():
        lower = name.lower()
        if lower == "content-type":
            content_type = value
        elif lower not in ("cookie", "host", "content-length"):
            headers[name] = value
    path = urlunsplit(("", "", url.path or "/", url.query, ""))
    options = {
        "data": request.body or b"",
        "content_type": content_type,
        "secure": url.scheme == "https",
        "headers": headers,
        **request.options,
    }
    return path, options


def _cookies(request: Request) -> SimpleCookie:
    cookies: SimpleCookie = SimpleCookie()
    for name, value in request.headers.items():
        if name.lower() == "cookie":
            cookies.load(value)
    return cookies


def _client_arguments(client_options: Mapping[str, Any]) -> dict[str, Any]:
    return {"enforce_csrf_checks": True, **client_options}


def _response(response: Any, content: bytes) -> Response:
    return Response(
        status=response.status_code,
        reason=response.reason_phrase,
        headers=response.headers,
        content=content,
        raw=response,
    )


class InProcessTransport(Transport):
    """
    Sends requests into this Django project through a `django.test.Client`: sync services.

    The client's own cookies are neither sent nor changed; the request's `Cookie` header is.
    `params["connection"]` is passed to `client.generic()` (e.g. `REMOTE_ADDR`). Opened from a
    remote's settings (`"CONNECTION": IN_PROCESS`), the remote's `OPTIONS` (besides `headers`)
    are arguments of the test client, e.g. `{"raise_request_exception": False}` to get a 500
    answer instead of the view's exception; CSRF checks are enforced unless
    `{"enforce_csrf_checks": False}`.
    """

    name = "in-process"
    library = "django"

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> Client:
        return Client(**_client_arguments(client_options))

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not isinstance(client, Client):
            raise TypeError(f"Expected a django.test.Client, not {type(client).__name__}.")
        super().__init__(client, **kwargs)

    def send(self, request: Request) -> Response:
        """Send `request` to the project's URLconf and return its response."""
        path, options = _arguments(request)
        jar = self.client.cookies
        self.client.cookies = _cookies(request)
        try:
            response = self.client.generic(request.method, path, **options)
        finally:
            self.client.cookies = jar
        content = b"".join(response.streaming_content) if response.streaming else response.content
        return _response(response, content)


class AsyncInProcessTransport(AsyncTransport):
    """
    Sends requests into this Django project through a `django.test.AsyncClient`.

    Services have coroutine methods. Views run as under an ASGI server: sync views (and the
    database) in another thread, so use a transactional database in tests.
    """

    name = "async-in-process"
    library = "django"

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> AsyncClient:
        return AsyncClient(**_client_arguments(client_options))

    def __init__(self, client: Any, **kwargs: Any) -> None:
        if client is not None and not isinstance(client, AsyncClient):
            raise TypeError(f"Expected a django.test.AsyncClient, not {type(client).__name__}.")
        super().__init__(client, **kwargs)

    async def send(self, request: Request) -> Response:
        """Send `request` to the project's URLconf and return its response."""
        path, options = _arguments(request)
        jar = self.client.cookies
        self.client.cookies = _cookies(request)
        try:
            response = await self.client.generic(request.method, path, **options)
        finally:
            self.client.cookies = jar
        if response.streaming:
            content = b"".join([chunk async for chunk in response.streaming_content])
        else:
            content = response.content
        return _response(response, content)


#: A remote's `CONNECTION` calling this project in-process: sync services.
IN_PROCESS = InProcessTransport
#: The same with coroutine services.
ASYNC_IN_PROCESS = AsyncInProcessTransport


@contextlib.contextmanager
def in_process_remote(
    alias: str,
    *,
    base_url: str = TEST_SERVER,
    asynchronous: bool = False,
    **options: Any,
) -> Iterator[Remote]:
    """
    Point the remote `alias` at this project, in-process, for the duration of the block.

    `base_url` is where this project mounts the services (its host is ignored); other keyword
    arguments replace options of the remote (`AUTH={...}`, `SERVICES={...}`). The remote need
    not be configured already. Yields the remote.
    """
    user_settings = copy.deepcopy(dict(getattr(settings, SETTINGS_NAME, {})))
    configured = dict(user_settings.get("REMOTES", {}))
    remote = {**configured.get(alias, {}), **options}
    remote["BASE_URL"] = base_url
    remote["CONNECTION"] = ASYNC_IN_PROCESS if asynchronous else IN_PROCESS
    user_settings["REMOTES"] = {**configured, alias: remote}
    overrides: dict[str, Any] = {SETTINGS_NAME: user_settings}
    urlconf = _serving_urlconf(urlsplit(base_url).path)
    if urlconf is not None:
        overrides["ROOT_URLCONF"] = urlconf
    with override_settings(**overrides):
        yield remotes[alias]


def _serving_urlconf(base_path: str) -> types.ModuleType | None:
    """
    None when the project's URLconf hands `base_path` to the services; else a URLconf of the
    project's patterns followed by the services mounted at `base_path`.
    """
    from django.urls import Resolver404, include, path, resolve

    from .server.rest.views import serve

    prefix = base_path.strip("/")
    try:
        if resolve(f"/{prefix}/" if prefix else "/").func is serve:
            return None
    except Resolver404:
        pass
    urlconf = types.ModuleType("django_services.testing.urls")
    urlconf.urlpatterns = [  # type: ignore[attr-defined]
        path("", include(settings.ROOT_URLCONF)),  # type: ignore[misc]
        path(f"{prefix}/" if prefix else "", include("django_services.urls")),
    ]
    return urlconf


try:
    import pytest
except ImportError:  # pragma: no cover - the fixtures need pytest, the rest does not
    _HAS_PYTEST = False
else:
    _HAS_PYTEST = True

if _HAS_PYTEST:

    @pytest.fixture
    def in_process_remotes() -> Iterator[Callable[..., Remote]]:
        """
        Point remotes at this project, in-process, until the end of the test.

            def test_invoices(in_process_remotes):
                billing = in_process_remotes("billing", AUTH=None)
                assert billing.service("invoices").find() == []

        Takes the arguments of `in_process_remote()`; returns the remote.
        """
        with contextlib.ExitStack() as stack:

            def point(alias: str, **arguments: Any) -> Remote:
                return stack.enter_context(in_process_remote(alias, **arguments))

            yield point

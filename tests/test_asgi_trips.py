"""
How often a request goes from the event loop to its thread under
`django_services.asgi.get_asgi_application()`, and what each way keeps of Django's handler.

A request for a synchronous view, with every middleware able to run synchronously, is served
in one trip to its thread, as Django's WSGI handler serves it; a request for an async view,
or any request when a middleware is async-only, takes Django's own ASGI way, which runs the
async view on the event loop and cancels it when its client leaves. A streaming response is
closed once streamed, and stops streaming when its client leaves.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.signals import request_finished
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import include, path

from django_services.asgi import get_asgi_application, request_threads_of
from tests.servers import AsgiThreadServer
from tests.waiting import eventually

pytestmark = pytest.mark.django_db(transaction=True)

SERVICES = {"todos": "tests.server.model_services.TodoService"}

#: What the views below saw, for the tests to read.
seen: dict[str, Any] = {}


def sync_view(request: HttpRequest) -> HttpResponse:
    seen["sync view thread"] = threading.current_thread().name
    return HttpResponse("sync")


async def async_view(request: HttpRequest) -> HttpResponse:
    seen["async view thread"] = threading.current_thread().name
    return HttpResponse("async")


async def waiting_view(request: HttpRequest) -> HttpResponse:
    seen["waiting"] = True
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        seen["cancelled"] = True
        raise
    return HttpResponse("never")


def streaming_view(request: HttpRequest) -> StreamingHttpResponse:
    endless = request.GET.get("endless") == "1"

    # Django streams an asynchronous iterator under ASGI (a synchronous one it reads whole).
    async def chunks() -> AsyncIterator[bytes]:
        try:
            index = 0
            while endless or index < 3:
                yield f"chunk {index}\n".encode()
                index += 1
                await asyncio.sleep(0)
            seen["events"].append("streamed")
        finally:
            seen["events"].append("iterator closed")

    return StreamingHttpResponse(chunks(), content_type="text/plain")


urlpatterns = [
    path("sync/", sync_view),
    path("async/", async_view),
    path("waiting/", waiting_view),
    path("streaming/", streaming_view),
    path("", include("django_services.urls")),
]


class WithoutAsyncViews:
    """A URLconf with this module's synchronous views only."""

    urlpatterns = [
        pattern
        for pattern in urlpatterns
        if not iscoroutinefunction(getattr(pattern, "callback", None))
    ]


class AsyncOnlyMiddleware:
    """A middleware that can only run as a coroutine: it marks the responses it passes."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[..., Any]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)
        response["X-Async-Middleware"] = "yes"
        return response


@pytest.fixture
def served(settings) -> Iterator[Callable[..., AsgiThreadServer]]:
    """`served(**settings)`: this module's URLs under uvicorn, with those settings."""
    servers: list[AsgiThreadServer] = []
    seen.clear()
    seen["events"] = []

    def start(threads: int = 2, **overrides: Any) -> AsgiThreadServer:
        settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "ASGI_REQUEST_THREADS": threads}
        settings.ROOT_URLCONF = __name__
        for name, value in overrides.items():
            setattr(settings, name, value)
        servers.append(AsgiThreadServer(get_asgi_application(), lifespan="auto").start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def trips() -> Callable[[AsgiThreadServer], list[int]]:
    """`trips(server)`: a list that counts each call the server sends to a request thread."""

    def count(server: AsgiThreadServer) -> list[int]:
        threads = request_threads_of(server.application)
        assert threads is not None
        counted = [0]
        for executor in threads._executors:
            submit = executor.submit

            def counting_submit(*args: Any, _submit: Any = submit, **kwargs: Any) -> Any:
                counted[0] += 1
                return _submit(*args, **kwargs)

            executor.submit = counting_submit  # type: ignore[method-assign]
        return counted

    return count


def create(server: AsgiThreadServer, text: str) -> requests.Response:
    return requests.post(f"{server.url}/todos", json={"text": text}, timeout=30)


@pytest.mark.parametrize("urls", [__name__, WithoutAsyncViews], ids=["async views", "none"])
def test_a_request_for_a_sync_view_goes_to_its_thread_once(served, trips, urls):
    server = served(ROOT_URLCONF=urls)
    counted = trips(server)
    answer = create(server, "one trip")
    assert answer.status_code == 201
    assert answer.json()["text"] == "one trip"
    assert counted == [1]
    assert requests.get(f"{server.url}/todos/{answer.json()['id']}", timeout=30).ok
    assert requests.get(f"{server.url}/sync/", timeout=30).text == "sync"
    assert counted == [3]
    assert seen["sync view thread"].startswith("django-request-")


def test_an_async_view_runs_on_the_event_loop(served, trips):
    server = served()
    counted = trips(server)
    answer = requests.get(f"{server.url}/async/", timeout=30)
    assert answer.text == "async"
    assert seen["async view thread"] == server.thread.name
    # Django's way: `request_started` and the middleware go to the thread, and back.
    assert counted[0] > 1


def test_an_async_view_is_cancelled_when_its_client_leaves(served):
    server = served()
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(b"GET /waiting/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
        eventually(lambda: seen.get("waiting"))
    eventually(lambda: seen.get("cancelled"))


def test_an_async_only_middleware_serves_every_request_djangos_way(served, trips, settings):
    server = served(MIDDLEWARE=[*settings.MIDDLEWARE, f"{__name__}.AsyncOnlyMiddleware"])
    counted = trips(server)
    answer = create(server, "through the async middleware")
    assert answer.status_code == 201
    assert answer.headers["X-Async-Middleware"] == "yes"
    assert counted[0] > 1


def test_a_streaming_response_is_closed_once_streamed(served):
    server = served()

    def finished(**kwargs: Any) -> None:
        seen["events"].append("request finished")

    request_finished.connect(finished, weak=False)
    try:
        answer = requests.get(f"{server.url}/streaming/", timeout=30)
        assert answer.text == "chunk 0\nchunk 1\nchunk 2\n"
        eventually(lambda: "request finished" in seen["events"])
        assert seen["events"] == ["streamed", "iterator closed", "request finished"]
    finally:
        request_finished.disconnect(finished)


def test_a_streaming_response_stops_when_its_client_leaves(served):
    server = served()
    with requests.get(f"{server.url}/streaming/?endless=1", stream=True, timeout=30) as answer:
        assert next(answer.iter_lines()) == b"chunk 0"
    eventually(lambda: "iterator closed" in seen["events"])
    assert "streamed" not in seen["events"]


def test_a_request_django_cannot_decode_is_answered_400():
    # Django's handler answers 400 when the query string is not UTF-8.
    from django.conf import settings

    application = get_asgi_application()
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/todos",
        "raw_path": b"/todos",
        "query_string": b"text=\xff",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    assert settings.ROOT_URLCONF
    asyncio.run(application(scope, receive, send))
    assert messages[0]["status"] == 400


def test_concurrent_creates_over_one_trip_each_all_land(served):
    # Writers to an in-memory SQLite database share one cache, whose lock does not wait: one
    # thread there (the test suite's database), four on a database that takes turns.
    in_memory = getattr(connection, "is_in_memory_db", lambda: False)()
    server = served(threads=1 if in_memory else 4)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda index: create(server, f"todo {index}"), range(40)))
    assert [answer.status_code for answer in answers] == [201] * 40
    assert sorted(answer.json()["text"] for answer in answers) == sorted(
        f"todo {index}" for index in range(40)
    )

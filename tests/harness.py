"""
`ClientHarness`: Python client apps on one connection kind, and their calls run to the end.

    harness = ClientHarness("aiohttp")
    people = harness.app("http://127.0.0.1:8000").service("people")
    harness.run(people.find())       # awaited in the harness's own event loop
    harness.close()

The client and interoperability tests are parametrized over `CONNECTION_KINDS`, so each test
proves the same behaviour on requests, httpx (sync and async) and aiohttp, and stays
synchronous: `run()` returns a call's result, and insists that async kinds return coroutines
and sync kinds do not.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import inspect
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from django_services.client import App, rest_client

CONNECTION_KINDS = ("requests", "httpx", "httpx-async", "aiohttp")
ASYNC_KINDS = ("httpx-async", "aiohttp")


class ClientHarness:
    """Makes client connections of one kind, runs their calls, and closes them all."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.is_async = kind in ASYNC_KINDS
        self.loop = asyncio.new_event_loop() if self.is_async else None
        self._closers: list[Callable[[], Any]] = []

    def run(self, value: Any) -> Any:
        """The result of a client call: awaited for async kinds, which must return coroutines."""
        if self.is_async:
            assert inspect.iscoroutine(value), f"{self.kind} call returned {value!r}"
            return self.loop.run_until_complete(value)
        assert not inspect.isawaitable(value), f"{self.kind} call returned an awaitable"
        return value

    def raises(self, error_class: type[BaseException], call: Callable[[], Any]) -> BaseException:
        """The error `call()`, a client call, raises (the test fails when it raises none)."""
        with pytest.raises(error_class) as caught:
            self.run(call())
        return caught.value

    def connect(
        self,
        base: str,
        options: Mapping[str, Any] | None = None,
        service_class: type | None = None,
    ) -> Any:
        """A REST connection to `base` on a session or client of this kind."""
        import aiohttp
        import httpx
        import requests

        transport = rest_client(base)
        if self.kind == "requests":
            session = requests.Session()
            self._closers.append(session.close)
            return transport.requests(session, options=options, service_class=service_class)
        if self.kind == "httpx":
            client = httpx.Client()
            self._closers.append(client.close)
            return transport.httpx(client, options=options, service_class=service_class)
        if self.kind == "httpx-async":
            async_client = httpx.AsyncClient()
            self._closers.append(lambda: self.run(async_client.aclose()))
            return transport.httpx(async_client, options=options, service_class=service_class)

        async def open_session() -> aiohttp.ClientSession:
            return aiohttp.ClientSession()

        aiohttp_session = self.run(open_session())
        self._closers.append(lambda: self.run(aiohttp_session.close()))
        return transport.aiohttp(aiohttp_session, options=options, service_class=service_class)

    def app(self, base: str, options: Mapping[str, Any] | None = None) -> App:
        """A client app with one connection to `base`."""
        return App().configure(self.connect(base, options))

    def close(self) -> None:
        """Close every connection made, then the event loop."""
        for close in reversed(self._closers):
            close()
        if self.loop is not None:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()


def join_live_server_threads() -> None:
    """
    Wait for the threads of Django's live server that still serve a client connection.

    The live server answers each keep-alive connection in a thread of its own, which closes
    the shared test database connection when it ends: those threads must end before the live
    server (and its database) goes away. A connection stays open as long as the HTTP library's
    response object lives, and errors keep theirs (`error.response`), in reference cycles with
    their tracebacks: collect them, so every client socket is closed.
    """
    gc.collect()
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=10)
            assert not thread.is_alive(), f"{thread.name} still serves a client connection"


@contextlib.contextmanager
def connection_per_request_thread(live_server: Any) -> Iterator[None]:
    """
    Within the block, each of the live server's request threads has a database connection of
    its own, as in a deployment, and concurrent requests run side by side.

    pytest-django hands every request thread the test's one connection to an in-memory SQLite
    database; concurrent statements on one `sqlite3.Connection` read each other's rows (an
    `IndexError`, a 404 for a record that exists) and fail under Python 3.13 ("bad parameter
    or other API misuse"). The test database's cache is shared and the test's connection
    keeps it alive, so a connection of a thread's own sees the same tables. On another
    database each thread has its own connection already.
    """
    server = live_server.thread.httpd
    shared, server.connections_override = server.connections_override, {}
    try:
        yield
    finally:
        server.connections_override = shared

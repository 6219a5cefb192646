"""
REST under a real uvicorn, on `django_services.asgi.get_asgi_application()`: each request's
synchronous code runs in one of a fixed set of threads, so a database connection outlives its
request as `CONN_MAX_AGE` allows, and a request that fails leaves its thread's connection
healthy for the next one. At shutdown the threads close their connections.
"""

from __future__ import annotations

import importlib.util
import socket
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.db import connection, connections
from django.db.backends.signals import connection_created
from django.db.models.signals import post_save

from django_services.asgi import get_asgi_application, request_threads_of
from django_services.server.socketio import get_asgi_application as socketio_application
from tests.servers import AsgiThreadServer
from tests.testapp.models import Todo

pytestmark = pytest.mark.django_db(transaction=True)

#: Django never closes a connection to an in-memory SQLite database (it would lose the data).
closable_connections = pytest.mark.skipif(
    getattr(connection, "is_in_memory_db", lambda: False)(),
    reason="connections to an in-memory database stay open",
)

SERVICES = {
    "todos": "tests.server.model_services.TodoService",
    "refusing": "tests.server.services.test_model_services_create.RefusingTodoService",
}


class AsgiServer(AsgiThreadServer):
    """The Django application under uvicorn in a thread (Django's own handler has no lifespan)."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, lifespan="auto")

    def create(self, text: str, service: str = "todos") -> requests.Response:
        return requests.post(f"{self.url}/{service}", json={"text": text}, timeout=30)


@pytest.fixture
def opened() -> Iterator[list[Any]]:
    """Every database connection the server opened while the test runs (the drivers' own)."""
    connections_opened: list[Any] = []
    test_thread = threading.current_thread()

    def record(sender: Any, connection: Any, **kwargs: Any) -> None:
        if threading.current_thread() is not test_thread:
            connections_opened.append(connection.connection)

    connection_created.connect(record, weak=False)
    yield connections_opened
    connection_created.disconnect(record)


def is_closed(driver_connection: Any) -> bool:
    """Whether a psycopg or sqlite3 connection was closed."""
    if hasattr(driver_connection, "closed"):  # psycopg
        return bool(driver_connection.closed)
    try:
        driver_connection.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return True
    return False


@pytest.fixture
def asgi_server(settings) -> Iterator[Callable[..., AsgiServer]]:
    """`asgi_server(threads, **database_settings)`: a started server with those settings."""
    database = connections.settings["default"]
    saved = dict(database)
    servers: list[AsgiServer] = []

    def start(threads: int, *, sockets: bool = False, **database_settings: Any) -> AsgiServer:
        settings.DJANGO_SERVICES = {"SERVICES": SERVICES, "ASGI_REQUEST_THREADS": threads}
        # The server's threads build their connections from these settings.
        database.update(database_settings)
        application = socketio_application() if sockets else get_asgi_application()
        servers.append(AsgiServer(application).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
    database.clear()
    database.update(saved)


@pytest.mark.parametrize(("threads", "most"), [(2, 2), (0, 20)])
def test_connections_persist_in_the_request_threads(asgi_server, opened, threads, most):
    server = asgi_server(threads, CONN_MAX_AGE=None)
    for index in range(20):
        assert server.create(f"todo {index}").status_code == 201
    assert Todo.objects.count() == 20
    if threads:
        assert 1 <= len(opened) <= most
    else:  # Django's own handler: a thread, and so a connection, per request
        assert len(opened) == most
        # Their threads have ended without closing them.
        for each in opened:
            each.close()


@closable_connections
def test_connections_close_at_the_end_of_each_request_without_conn_max_age(asgi_server, opened):
    server = asgi_server(1, CONN_MAX_AGE=0)
    for index in range(3):
        assert server.create(f"todo {index}").status_code == 201
    # The one thread serves this request once the last create has ended (and closed its
    # connection), which may be after its answer was sent.
    assert requests.get(f"{server.url}/todos", timeout=30).status_code == 200
    assert len(opened) == 4
    assert [is_closed(each) for each in opened[:3]] == [True] * 3


def test_requests_beyond_the_threads_wait_for_one(asgi_server, opened):
    server = asgi_server(1, CONN_MAX_AGE=None)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda index: server.create(f"todo {index}"), range(16)))
    assert [answer.status_code for answer in answers] == [201] * 16
    assert sorted(Todo.objects.values_list("text", flat=True)) == sorted(
        f"todo {index}" for index in range(16)
    )
    assert len(opened) == 1


def test_a_create_failing_midway_writes_nothing_and_the_next_one_is_served(asgi_server, opened):
    server = asgi_server(1, CONN_MAX_AGE=None)
    assert server.create("refused", service="refusing").status_code == 409

    def refuse(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
        if instance.text == "exploding":
            raise RuntimeError("the receiver fails after the insert")

    post_save.connect(refuse, sender=Todo, weak=False)
    try:
        assert server.create("exploding").status_code == 500
    finally:
        post_save.disconnect(refuse, sender=Todo)
    assert server.create("kept").status_code == 201
    assert list(Todo.objects.values_list("text", flat=True)) == ["kept"]
    # The one connection served all three: the failures left it out of any transaction.
    assert len(opened) == 1


@closable_connections
def test_the_threads_close_their_connections_at_shutdown(asgi_server, opened):
    server = asgi_server(2, CONN_MAX_AGE=None)
    assert server.create("todo").status_code == 201
    assert opened and not any(is_closed(each) for each in opened)
    server.stop()
    assert all(is_closed(each) for each in opened)


def test_the_socket_io_application_closes_the_request_threads_at_shutdown(asgi_server):
    server = asgi_server(2, sockets=True)
    assert server.create("todo").status_code == 201
    threads = server.application.server.request_threads
    assert threads is request_threads_of(server.application.other_asgi_app)
    assert not threads.closed
    server.stop()
    assert threads.closed


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL ends the session")
def test_a_connection_ended_by_the_database_is_replaced(asgi_server, opened):
    options = {**connection.settings_dict["OPTIONS"], "application_name": "ended-by-database"}
    server = asgi_server(1, CONN_MAX_AGE=None, CONN_HEALTH_CHECKS=True, OPTIONS=options)
    assert server.create("before").status_code == 201
    with connection.cursor() as cursor:
        cursor.execute(
            # The test's own connection, opened with the same settings, stays.
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = %s AND pid <> pg_backend_pid()",
            [options["application_name"]],
        )
        assert cursor.fetchall() == [(True,)]
    assert server.create("after").status_code == 201
    assert sorted(Todo.objects.values_list("text", flat=True)) == ["after", "before"]
    assert len(opened) == 2


@pytest.mark.skipif(
    connection.vendor != "postgresql" or importlib.util.find_spec("psycopg_pool") is None,
    reason="psycopg's pool on PostgreSQL",
)
def test_psycopgs_pool_serves_the_request_threads(asgi_server):
    options = {
        **connection.settings_dict["OPTIONS"],
        "pool": {"min_size": 1, "max_size": 2},
        "application_name": "pooled-asgi-threads",
    }
    server = asgi_server(4, CONN_MAX_AGE=0, OPTIONS=options)
    try:
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda index: server.create(f"todo {index}"), range(12)))
        assert [answer.status_code for answer in answers] == [201] * 12
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE application_name = %s AND pid <> pg_backend_pid()",
                [options["application_name"]],
            )
            # Four threads, two pooled connections: each request gave its connection back.
            assert 1 <= cursor.fetchone()[0] <= 2
    finally:
        server.stop()
        connection.close_pool()


def test_a_request_whose_body_is_still_arriving_holds_no_thread(asgi_server):
    server = asgi_server(1, CONN_MAX_AGE=None)
    body = b'{"text": "slow"}'
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as slow:
        slow.sendall(
            b"POST /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body[:5])
        )
        # Served while the slow body waits: the one thread is free.
        assert server.create("quick").status_code == 201
        slow.sendall(body[5:])
        assert slow.recv(64).startswith(b"HTTP/1.1 201")
    assert sorted(Todo.objects.values_list("text", flat=True)) == ["quick", "slow"]

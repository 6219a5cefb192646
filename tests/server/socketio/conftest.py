"""
A real socket.io server for the tests: uvicorn on loopback, in a thread, serving the ASGI
application of `get_asgi_application()` (REST and socket.io on one port), and real
python-socketio clients connecting to it over websocket or polling.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
import socketio

from django_services.server.socketio import get_asgi_application
from tests.servers import AsgiThreadServer

C = "tests.interop.conformance.services."
SECRET = "the-socket-tests-jwt-secret-of-at-least-32-bytes"
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"

SERVICES = {
    "people": C + "PersonService",
    "people-customid": C + "PersonCustomIdService",
    "api/v1/messages": C + "MessageService",
    "todos": C + "TodoService",
    "users": C + "ConformanceUserService",
    "secrets": C + "SecretService",
    "users/:userId/notes": C + "NoteService",
    "errors": C + "ErrorService",
    "whoami": "tests.server.authentication.services.WhoAmIService",
    "request-seen": "tests.server.authentication.services.RequestSeenService",
}

#: The Python client's transports for most tests; long-polling is proved by the real
#: socket.io-client of the Feathers interoperability suite (tests/interop), and by the modules
#: whose rule must hold on both (test_reads.py), which override the `transport` fixture.
TRANSPORTS = ("websocket",)


class LiveSocketServer(AsgiThreadServer):
    """Our socket.io + Django application (REST and socket.io on one port), in a thread."""

    name = "socket.io"

    def __init__(self, *, port: int = 0, ws: Any = "wsproto", **server_options: Any) -> None:
        super().__init__(get_asgi_application(**server_options), port=port, ws=ws)


@pytest.fixture
def services_settings(settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": SERVICES,
        "AUTHENTICATION": {"SECRET": SECRET, "ENTITY": "user", "ENTITY_SERVICE": "users"},
    }
    return settings.DJANGO_SERVICES


@pytest.fixture
def live_socket_server(services_settings, transactional_db) -> Iterator[LiveSocketServer]:
    with LiveSocketServer() as server:
        yield server


@pytest.fixture
def user(transactional_db):
    from tests.testapp.models import User

    return User.objects.create_user(email=EMAIL, password=PASSWORD)


class ReadingSession:
    """
    An aiohttp session whose POST answers are read in full: python-engineio's polling client
    never reads them, and leaves the connection of its last one (the close) unreleased.
    """

    def __init__(self) -> None:
        self.session = aiohttp.ClientSession()

    async def post(self, *args: Any, **kwargs: Any) -> aiohttp.ClientResponse:
        response = await self.session.post(*args, **kwargs)
        await response.read()
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)


class _RecordingClient(socketio.AsyncClient):
    """python-socketio's client, keeping the data of its CONNECT answer (`sid`, `pid`)."""

    connected_with: dict[str, Any] | None = None

    async def _handle_connect(self, namespace: Any, data: Any) -> Any:
        self.connected_with = data if isinstance(data, dict) else None
        return await super()._handle_connect(namespace, data)


class Client:
    """
    A python-socketio client whose calls return the ack's arguments as a list. With the
    server's connection state recovery on (a `pid` in the CONNECT answer), an event carries
    its offset as its last argument: kept in `offsets` (None for an event without one: one
    another program emitted through Redis), left out of `events`.
    """

    def __init__(self, url: str, transport: str) -> None:
        self.url = url
        self.transport = transport
        self.http = ReadingSession() if transport == "polling" else None
        self.sio = _RecordingClient(reconnection=False, http_session=self.http)
        self.disconnected = asyncio.Event()
        self.sio.on("disconnect", self._on_disconnect)

        self.events: list[tuple[str, Any]] = []
        self.offsets: list[str | None] = []
        self.sio.on("*", self._on_event)

    async def _on_disconnect(self, *args: Any) -> None:
        self.disconnected.set()

    @property
    def pid(self) -> str | None:
        """The private id the CONNECT answer gave (None: recovery is off)."""
        return (self.sio.connected_with or {}).get("pid")

    async def _on_event(self, event: str, *args: Any) -> None:
        if self.pid is not None or (self.sio.connected_with is None and len(args) == 2):
            # The events a recovered connection missed arrive before its CONNECT answer.
            assert len(args) in (1, 2), (event, args)
            assert len(args) == 1 or isinstance(args[1], str), (event, args)
            self.offsets.append(args[1] if len(args) == 2 else None)
        else:
            assert len(args) == 1, (event, args)
        self.events.append((event, args[0]))

    async def connect(self, headers: dict[str, str] | None = None, auth: Any = None) -> Client:
        await self.sio.connect(
            self.url, headers=headers or {}, auth=auth, transports=[self.transport]
        )
        return self

    async def ack(self, event: str, *args: Any, timeout: float = 10) -> list[Any]:
        """Emit `event` with `args` and return every argument of its ack."""
        answered: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        await self.sio.emit(event, args, callback=lambda *values: answered.set_result(list(values)))
        return await asyncio.wait_for(answered, timeout)

    async def call(self, event: str, *args: Any) -> Any:
        """The result of a call that must succeed."""
        answer = await self.ack(event, *args)
        assert len(answer) == 2 and answer[0] is None, answer
        return answer[1]

    async def call_when_available(self, event: str, *args: Any, attempts: int = 20) -> Any:
        """
        The result of a call that must succeed once the database answers: the test database on
        SQLite is one shared cache, whose table locks fail a write at once (`503`) while the
        log's tail reads, where a file database would wait for the lock.
        """
        for _ in range(attempts - 1):
            answer = await self.ack(event, *args)
            if not (len(answer) == 1 and answer[0].get("code") == 503):
                break
            await asyncio.sleep(0.05)
        else:
            answer = await self.ack(event, *args)
        assert len(answer) == 2 and answer[0] is None, answer
        return answer[1]

    async def error(self, event: str, *args: Any) -> dict[str, Any]:
        """The error object of a call that must fail."""
        answer = await self.ack(event, *args)
        assert len(answer) == 1 and isinstance(answer[0], dict), answer
        return answer[0]

    async def close(self) -> None:
        await self.sio.shutdown()
        if self.http is not None:
            await self.http.close()


@pytest.fixture(params=TRANSPORTS)
def transport(request) -> str:
    return request.param


@pytest.fixture
async def connect(live_socket_server, transport):
    """`await connect(headers=None)`: a connected client on the test's transport."""
    clients: list[Client] = []

    async def open_client(headers: dict[str, str] | None = None) -> Client:
        client = Client(live_socket_server.url, transport)
        clients.append(client)
        return await client.connect(headers)

    yield open_client
    for client in clients:
        await client.close()

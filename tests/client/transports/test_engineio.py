"""
The fixes the socket.io connections give python-engineio's clients hold on the version installed
(CI runs the lowest version pyproject.toml allows and the newest): the internals they build on
are there, and a change of them fails here rather than in a user's connection.
"""

from __future__ import annotations

import inspect

import engineio
import pytest
import socketio
from engineio import async_client, async_socket, client, packet, payload, socket

from django_services.client.transports import _engineio
from django_services.client.transports._engineio import (
    AsyncOrderedClient,
    OrderedClient,
    adapt,
)

#: A long-polling answer of 40 messages, as an engine.io server sends a burst.
BURST = "\x1e".join(packet.Packet(packet.MESSAGE, data=f"m{n}").encode() for n in range(40))


@pytest.mark.parametrize("module", [client, async_client])
def test_a_client_decodes_any_number_of_packets(module):
    assert len(module.payload.Payload(encoded_payload=BURST).packets) == 40


def test_the_servers_payload_is_not_the_clients():
    # The server's own limit is the server's business (django_services.server.socketio.engine
    # raises it); the clients' fix replaces only the payload their modules decode with.
    assert socket.payload is payload and async_socket.payload is payload
    assert client.payload is not payload and async_client.payload is not payload


@pytest.mark.parametrize(
    ("cls", "fixes"), [(engineio.Client, OrderedClient), (engineio.AsyncClient, AsyncOrderedClient)]
)
def test_the_internals_the_fixes_override_are_there(cls, fixes):
    for name in ("_trigger_event", "_write_loop", "_send_request", "_reset"):
        assert callable(getattr(cls, name)), name
    assert "run_async" in inspect.getsource(cls._receive_packet)
    assert "self.queue" in inspect.getsource(cls._write_loop)
    assert cls.reason.TRANSPORT_ERROR
    assert issubclass(fixes, cls)


def test_adapt_fixes_the_engine_of_any_client():
    class OwnEngine(engineio.Client):
        pass

    sync, async_ = socketio.Client(), socketio.AsyncClient()
    assert isinstance(adapt(sync.eio), OrderedClient)
    assert isinstance(adapt(async_.eio), AsyncOrderedClient)
    assert type(adapt(sync.eio)) is OrderedClient  # adapting twice changes nothing
    own = adapt(OwnEngine())
    assert isinstance(own, OwnEngine) and isinstance(own, OrderedClient)


def test_a_burst_of_calls_is_posted_sixteen_packets_at_a_time():
    parts = _engineio._bodies({"body": BURST, "timeout": 5})
    assert [part["body"].count("\x1e") + 1 for part in parts] == [16, 16, 8]
    assert "\x1e".join(part["body"] for part in parts) == BURST
    assert all(part["timeout"] == 5 for part in parts)


@pytest.mark.parametrize("cls", [socketio.Client, socketio.AsyncClient])
def test_a_reconnect_is_over_when_its_task_is_let_go(cls):
    # The connections release the calls waiting for a reconnect once python-socketio's
    # reconnect task has returned from connect(), which marks the client connected last.
    assert "self._reconnect_task = None" in inspect.getsource(cls._handle_reconnect)
    assert "self._reconnect_task = self.start_background_task(" in inspect.getsource(
        cls._handle_eio_disconnect
    )
    connect = inspect.getsource(cls.connect)
    assert connect.rindex("self.connected = True") > connect.index("_connect_event")
    # A transport lost before then: python-socketio clears the session id and nothing else.
    lost = inspect.getsource(cls._handle_eio_disconnect)
    assert "self.sid = None" in lost and "if self.connected:" in lost
    assert "self.namespaces = {}" in connect
    client = cls()
    assert client._reconnect_task is None and client.sid is None and not client.connected

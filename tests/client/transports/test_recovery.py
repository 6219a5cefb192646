"""
socket.io's connection state recovery in the client: what `Recovery` keeps, sends and takes off
the events, and the python-socketio internals its hooks override, on the version installed (CI
runs the lowest version pyproject.toml allows and the newest). The client against a real
socket.io server with recovery on is tested in tests/interop/test_socket_recovery.py.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
import socketio

from django_services.client import socketio_client
from django_services.client.transports._recovery import Recovery, adapt
from tests.client.proxy import Proxy
from tests.servers import AsgiThreadServer
from tests.waiting import eventually


def held(pid: str | None = "p1", offset: str | None = None) -> Recovery:
    recovery = Recovery()
    recovery.connected("/", {"sid": "s1", "pid": pid} if pid else {"sid": "s1"})
    if offset is not None:
        recovery.event("/", None, ["todos created", {}, offset])
    return recovery


def test_a_fresh_client_sends_only_its_own_auth():
    recovery = Recovery()
    assert recovery.auth() is None
    assert recovery.auth({"token": "t"}) == {"token": "t"}
    assert recovery.recovered is False


def test_the_pid_goes_alone_until_an_event_came():
    assert held().auth() == {"pid": "p1"}
    assert held(offset="o7").auth() == {"pid": "p1", "offset": "o7"}


def test_the_callers_own_keys_win():
    recovery = held(offset="o7")
    assert recovery.auth({"offset": "mine", "token": "t"}) == {
        "pid": "p1",
        "offset": "mine",
        "token": "t",
    }
    assert recovery.auth({"pid": "other"}) == {"pid": "other", "offset": "o7"}


def test_a_connect_answered_with_the_same_pid_recovered():
    recovery = held(offset="o7")
    recovery.connected("/", {"sid": "s1", "pid": "p1"})
    assert recovery.recovered is True
    assert recovery.auth() == {"pid": "p1", "offset": "o7"}


def test_a_new_pid_starts_afresh():
    recovery = held(offset="o7")
    recovery.connected("/", {"sid": "s2", "pid": "p2"})
    assert recovery.recovered is False
    assert recovery.auth() == {"pid": "p2"}


def test_a_server_without_recovery_leaves_everything_as_it_was():
    recovery = held(offset="o7")
    recovery.connected("/", {"sid": "s2"})
    assert recovery.recovered is False and recovery.pid is None
    assert recovery.auth({"token": "t"}) == {"token": "t"}
    # Without a pid, a trailing string is the event's data.
    assert recovery.event("/", None, ["said", "hello"]) == ["said", "hello"]


@pytest.mark.parametrize("pid", [None, 7, ["p"]])
def test_a_pid_that_is_not_a_string_is_no_pid(pid):
    recovery = held(offset="o7")
    recovery.connected("/", {"sid": "s1", "pid": pid})
    assert recovery.pid is None and recovery.recovered is False


def test_the_offset_is_taken_off_the_events_that_carry_one():
    recovery = held()
    assert recovery.event("/", None, ["todos created", {"id": 1}, "o1"]) == [
        "todos created",
        {"id": 1},
    ]
    assert recovery.offset == "o1"
    assert recovery.event(None, None, ["said", "hello", "o2"]) == ["said", "hello"]
    assert recovery.event("/", None, ["ping", "o3"]) == ["ping"]
    assert recovery.offset == "o3"


@pytest.mark.parametrize(
    ("namespace", "ack_id", "data"),
    [
        ("/", 4, ["ask", {"q": 1}, "not-an-offset"]),  # an event asking for an ack has none
        ("/", None, ["todos created", {"id": 1}]),  # a volatile event has none
        ("/", None, ["ping"]),
        ("/admin", None, ["todos created", {}, "o9"]),  # another namespace's socket
    ],
)
def test_events_without_an_offset_are_untouched(namespace, ack_id, data):
    recovery = held(offset="o1")
    assert recovery.event(namespace, ack_id, list(data)) == data
    assert recovery.offset == "o1"


def test_other_namespaces_connects_are_not_the_sockets():
    recovery = held(offset="o1")
    recovery.connected("/admin", {"sid": "x", "pid": "p9"})
    assert recovery.pid == "p1" and recovery.offset == "o1"


@pytest.mark.parametrize("cls", [socketio.Client, socketio.AsyncClient])
def test_the_internals_the_hooks_override_are_there(cls):
    # The hooks see the CONNECT answer's data and the event packet's data, ack id included.
    for name, parameters in (
        ("_handle_connect", ["namespace", "data"]),
        ("_handle_event", ["namespace", "id", "data"]),
    ):
        assert list(inspect.signature(getattr(cls, name)).parameters)[1:] == parameters, name
    dispatch = inspect.getsource(cls._handle_eio_message)
    assert "self._handle_connect(pkt.namespace, pkt.data)" in dispatch
    assert "self._handle_event(pkt.namespace, pkt.id, pkt.data)" in dispatch
    assert "pkt.namespace, pkt.id, pkt.data)" in dispatch  # a binary event's too
    # The connect handlers run from `_handle_connect`: after the hook has read the answer.
    assert "_trigger_event('connect'" in inspect.getsource(cls._handle_connect)
    # The auth payload is asked for at every CONNECT, a reconnect's included.
    assert "auth=self.connection_auth" in inspect.getsource(cls._handle_reconnect)
    assert "self._get_real_value(self.connection_auth)" in inspect.getsource(
        cls._handle_eio_connect
    )
    assert "callable(value)" in inspect.getsource(cls._get_real_value)


def test_adapt_hooks_any_client_once():
    class OwnClient(socketio.Client):
        pass

    recovery = Recovery()
    sync, async_ = adapt(socketio.Client(), recovery), adapt(socketio.AsyncClient(), recovery)
    assert isinstance(sync, socketio.Client) and isinstance(async_, socketio.AsyncClient)
    assert type(adapt(sync, Recovery())) is type(sync)  # adapting twice changes nothing
    own = adapt(OwnClient(), recovery)
    assert isinstance(own, OwnClient) and own.recovery is recovery


@pytest.mark.parametrize("client", [socketio.Client, socketio.AsyncClient])
def test_a_connection_starts_not_recovered(client):
    connection = socketio_client("http://127.0.0.1:9", client())
    assert connection.recovered is False
    assert connection.client.recovery is connection.recovery


@pytest.mark.parametrize("auth", ["token", ["pid"]])
def test_the_auth_option_is_a_mapping(auth):
    with pytest.raises(ValueError, match=r"options\['auth'\] must be a mapping"):
        socketio_client("http://127.0.0.1:9", options={"auth": auth})


def test_a_reconnect_waits_for_a_late_connect_answer_as_long_as_the_first_connect():
    # A recovery's CONNECT answer comes after the events missed: python-socketio's reconnect
    # would give up on it after 1 s and disconnect, which ends the session on the server.
    sio = socketio.AsyncServer(async_mode="asgi")
    connects: list[Any] = []
    reasons: list[str] = []

    @sio.on("connect")
    async def connect(sid, environ, auth):
        connects.append(auth)
        if len(connects) == 2:
            await asyncio.sleep(1.5)

    @sio.on("disconnect")
    async def disconnect(sid, reason=None):
        reasons.append(str(reason))

    @sio.on("ping")
    async def ping(sid):
        return "pong"

    with AsgiThreadServer(socketio.ASGIApp(sio), lifespan="off") as server:
        proxy = Proxy(server.url).start()
        client = socketio.Client(
            reconnection_delay=0.1, reconnection_delay_max=0.1, randomization_factor=0
        )
        connection = socketio_client(
            proxy.url, client, options={"transports": ["websocket"], "timeout": 5}
        )
        try:
            connection.connect()
            proxy.drop()
            eventually(lambda: len(connects) == 2 and client.connected and client.sid, 10)
            # The answer to a call sent after the reconnect: no other connect came before it.
            assert client.call("ping", timeout=5) == "pong"
            assert len(connects) == 2
            assert reasons == ["transport close"]  # the cut, and no disconnect of the client's
        finally:
            connection.close()
            proxy.stop()

"""A socket.io call and its ack: values of their own, not an HTTP request in disguise."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect

import pytest
import socketio

from django_services.client import App, authentication_client, socketio_client
from django_services.client._base import Request, build_request
from django_services.client.transports.socket_call import SocketAck, SocketCall, build_socket_call
from django_services.errors import BadRequest


def test_a_call_is_the_method_s_event_with_the_path_its_arguments_and_the_query():
    call = build_socket_call(
        "patch",
        "users/:userId/notes",
        {"route": {"userId": 7}, "query": {"$limit": 2}, "connection": {"timeout": 3}},
        id=3,
        data={"done": True},
        credential="T1",
    )

    assert call == SocketCall(
        "patch",
        "users/7/notes",
        ("users/7/notes", 3, {"done": True}, {"$limit": 2}),
        {"timeout": 3},
        "T1",
    )
    assert call.event == "patch"
    assert "T1" not in repr(call)
    assert not isinstance(call, Request)
    assert {field.name for field in dataclasses.fields(SocketCall)} == {
        "service_method",
        "path",
        "args",
        "options",
        "credential",
    }


def test_a_call_missing_its_id_is_refused_before_anything_is_sent():
    with pytest.raises(BadRequest, match="id for 'get' is required"):
        build_socket_call("get", "todos")


def test_an_ack_is_a_result_or_an_error():
    assert SocketAck.of((None, {"id": 1})) == SocketAck(ok=True, result={"id": 1})
    assert SocketAck.of(({"name": "NotFound"},)) == SocketAck(ok=False, error={"name": "NotFound"})
    assert SocketAck.of(()) == SocketAck(ok=False, error=None)


@pytest.mark.parametrize("client_class", [socketio.Client, socketio.AsyncClient])
def test_a_socket_transport_sends_socket_calls_only(client_class):
    transport = socketio_client("http://127.0.0.1:9", client_class())
    request = build_request("find", "http://127.0.0.1:9", "todos")

    with pytest.raises(TypeError, match="sends a SocketCall"):
        sent = transport.send(request)
        if inspect.isawaitable(sent):
            asyncio.run(sent)


@pytest.mark.parametrize("client_class", [socketio.Client, socketio.AsyncClient])
def test_a_call_carries_the_token_its_socket_is_logged_in_with(client_class):
    transport = socketio_client("http://127.0.0.1:9", client_class())
    app = App().configure(transport).configure(authentication_client())
    todos = app.service("todos")

    assert todos.build_request("find").credential is None
    transport.access_token = "T1"
    call = todos.build_request("find")
    assert call.credential == "T1"
    # What the authentication client reads and replaces to send a call again after a refresh.
    app.authentication.result = {"accessToken": "T2"}
    assert app.authentication.token_sent(call) == "T1"
    assert app.authentication.with_current_token(call).credential == "T2"

"""
Conditional requests on both transports: REST sends its preconditions as headers, a socket
call as the reserved query keys `$ifMatch` and `$ifNoneMatch`; both get the same errors, and
the events carry the version a client keeps its copy current with.
"""

from __future__ import annotations

import pytest
import requests

from tests.server.socketio.conftest import EMAIL, PASSWORD
from tests.waiting import eventually_async

pytestmark = pytest.mark.django_db(transaction=True)

C = "tests.server.conditional_services."
HEADERS = {"$ifMatch": "If-Match", "$ifNoneMatch": "If-None-Match"}
VERBS = {"get": "GET", "patch": "PATCH", "update": "PUT", "remove": "DELETE"}


@pytest.fixture
def services_settings(services_settings):
    services_settings["SERVICES"] = {
        **services_settings["SERVICES"],
        "versioned": C + "VersionedService",
        "guarded": C + "GuardedVersionedService",
    }
    return services_settings


@pytest.fixture(params=["rest", "socketio"])
def call(request, connect, live_socket_server):
    """
    `await call(method, path, id, data=None, **preconditions)`: the result, or the error JSON
    (REST: `{"status": 304}` for a 304), over the transport of the test. The preconditions
    are the reserved keys' values: REST sends them as headers (`ifMatch=2` is `If-Match: "2"`).
    """
    sockets = []

    async def over_socket(method, path, id, data=None, **preconditions):
        if not sockets:
            sockets.append(await connect())
        query = {f"${key}": value for key, value in preconditions.items()}
        args = [path, id, *([data] if method in ("patch", "update") else []), query]
        answer = await sockets[0].ack(method, *args)
        return answer[1] if answer[0] is None else answer[0]

    async def over_rest(method, path, id, data=None, **preconditions):
        headers = {HEADERS[f"${key}"]: f'"{value}"' for key, value in preconditions.items()}
        response = requests.request(
            VERBS[method],
            f"{live_socket_server.url}/{path}/{id}",
            json=data,
            headers=headers,
            timeout=10,
        )
        if response.status_code == 304:
            return {"status": 304, "etag": response.headers["ETag"]}
        return response.json()

    return over_socket if request.param == "socketio" else over_rest


def create(live_socket_server, path="versioned"):
    response = requests.post(f"{live_socket_server.url}/{path}", json={"text": "a"}, timeout=10)
    return response.json()


async def test_a_write_from_a_stale_version_is_412(call, live_socket_server):
    record = create(live_socket_server)
    second = await call("patch", "versioned", record["id"], {"text": "b"}, ifMatch=1)

    stale = await call("patch", "versioned", record["id"], {"text": "c"}, ifMatch=1)

    assert second["version"] == 2
    assert stale == {
        "name": "PreconditionFailed",
        "message": "The record has changed since it was read: its ETag is not the one sent",
        "code": 412,
        "className": "precondition-failed",
        "data": {"etag": '"2"'},
    }
    removed = await call("remove", "versioned", record["id"], ifMatch=second["version"])
    assert removed["text"] == "b"


async def test_a_current_copy_is_not_sent_again(call, live_socket_server):
    record = create(live_socket_server)

    current = await call("get", "versioned", record["id"], ifNoneMatch=1)
    stale = await call("get", "versioned", record["id"], ifNoneMatch=0)

    assert stale == record
    if "status" in current:  # REST
        assert current == {"status": 304, "etag": '"1"'}
    else:
        assert current == {
            "name": "NotModified",
            "message": "Not Modified",
            "code": 304,
            "className": "not-modified",
            "data": {"etag": '"1"'},
        }


async def test_a_service_that_requires_preconditions_answers_428(call, live_socket_server):
    record = create(live_socket_server, "guarded")

    refused = await call("patch", "guarded", record["id"], {"text": "b"})
    accepted = await call("patch", "guarded", record["id"], {"text": "b"}, ifMatch=1)

    assert (refused["name"], refused["code"]) == ("PreconditionRequired", 428)
    assert accepted["version"] == 2


async def test_events_carry_the_version_a_client_sends_next(
    connect, live_socket_server, user, settings
):
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SOCKETIO_PUBLISHER": "tests.interop.conformance.realtime.ConformancePublisher",
    }
    watcher, writer = await connect(), await connect()
    login = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    await watcher.call("create", "authentication", login, {})
    record = create(live_socket_server)

    await writer.call("patch", "versioned", record["id"], {"text": "b"}, {"$ifMatch": 1})
    await eventually_async(lambda: any(e == "versioned patched" for e, _ in watcher.events))
    copy = dict(watcher.events)["versioned patched"]
    again = await watcher.call(
        "patch", "versioned", record["id"], {"flag": True}, {"$ifMatch": copy["version"]}
    )

    assert copy["version"] == 2
    assert (again["version"], again["text"], again["flag"]) == (3, "b", True)

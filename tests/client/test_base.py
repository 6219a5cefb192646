"""The protocol core without any I/O: requests described, responses decoded, calls driven."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from django_services.client import Retries
from django_services.client._base import (
    Request,
    Response,
    TransportFailure,
    build_request,
    encode_component,
    exchange,
    merge_headers,
)
from django_services.errors import NotFound, Timeout, Unavailable

SAMPLES = ["a b/c?d", "-_.!~*'()", '#%&+=,;:@$[]{}|\\^`"<>', "é☃𝄞", "\t\n", "0", ""]


def test_build_request_describes_the_call():
    params = {
        "query": {"$limit": 2},
        "route": {"userId": 5},
        "headers": {"X-B": "2"},
        "connection": {"verify": False},
    }
    request = build_request(
        "patch",
        "http://api",
        "users/:userId/notes",
        params,
        id=3,
        data={"text": "x"},
        default_headers={"X-A": "1"},
        auth_headers={"Authorization": "Bearer T"},
    )

    assert request == Request(
        service_method="patch",
        method="PATCH",
        url="http://api/users/5/notes/3?%24limit=2",
        headers={
            "Accept": "application/json",
            "X-A": "1",
            "Content-Type": "application/json",
            "Authorization": "Bearer T",
            "X-B": "2",
        },
        body=b'{"text":"x"}',
        options={"verify": False},
    )


def test_merge_headers_is_case_insensitive_and_none_removes():
    merged = merge_headers({"Accept": "a", "X-A": 1}, {"accept": "b"}, {"x-a": None}, None)

    assert merged == {"accept": "b"}


def test_encode_component_is_encode_uri_component():
    assert encode_component("a b/c?d") == "a%20b%2Fc%3Fd"
    assert encode_component(True) == "true"
    assert encode_component(2.0) == "2"
    assert encode_component(2.5) == "2.5"


@pytest.mark.interop
@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_encode_component_matches_node():
    script = "console.log(JSON.stringify(JSON.parse(process.argv[1]).map(encodeURIComponent)))"
    result = subprocess.run(
        ["node", "-e", script, json.dumps(SAMPLES)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )

    assert [encode_component(sample) for sample in SAMPLES] == json.loads(result.stdout)


def drive(flow, outcomes):
    """Run an exchange generator with scripted outcomes; return (result, steps seen)."""
    steps = [next(flow)]
    outcomes = iter(outcomes)
    try:
        while True:
            outcome = next(outcomes) if isinstance(steps[-1], Request) else None
            steps.append(flow.send(outcome))
    except StopIteration as done:
        return done.value, steps


def ok(body=b"[]", status=200, headers=None):
    return Response(status, "", headers or {}, body)


GET = build_request("get", "http://api", "todos", id=1)


def test_exchange_decodes_a_response():
    result, steps = drive(exchange(GET), [ok(b'{"id": 1}')])

    assert result == {"id": 1}
    assert steps == [GET]


def test_exchange_waits_then_resends():
    retries = Retries(total=3, backoff_factor=1, jitter=0)
    busy = ok(b"", 503, {"Retry-After": "4"})
    failure = TransportFailure(GET, ConnectionResetError("reset"))

    result, steps = drive(exchange(GET, retries), [busy, failure, ok(b'"done"')])

    assert result == "done"
    assert steps == [GET, 4.0, GET, 2.0, GET]


def test_exchange_raises_the_error_of_the_last_outcome():
    not_found = ok(b'{"name": "NotFound", "message": "gone"}', 404)
    with pytest.raises(NotFound, match="gone"):
        drive(exchange(GET, Retries()), [not_found])

    cause = TimeoutError("read timed out")
    with pytest.raises(Timeout) as caught:
        drive(exchange(GET, Retries()), [TransportFailure(GET, cause, timed_out=True)])
    assert caught.value.__cause__ is cause

    refused = TransportFailure(GET, ConnectionRefusedError("refused"))
    with pytest.raises(Unavailable, match="refused"):
        drive(exchange(GET, Retries(total=1, backoff_factor=0)), [refused, refused])

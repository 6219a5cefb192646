"""The protocol core without any I/O: requests described, headers merged, ids encoded."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from django_services.client._base import (
    Request,
    build_request,
    encode_component,
    merge_headers,
)

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

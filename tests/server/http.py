"""Helpers to send requests and read Feathers answers in the server tests."""

from __future__ import annotations

import json

S = "tests.server.echo_services."
M = "tests.server.model_services."

_MISSING = object()


def send(
    client, method, path, data=_MISSING, *, raw=None, content_type="application/json", **extra
):
    """Send `data` as JSON (or `raw` bytes as they are) with any HTTP verb."""
    if raw is None and data is not _MISSING:
        raw = json.dumps(data)
    if raw is None:
        return client.generic(method, path, **extra)
    return client.generic(method, path, raw, content_type=content_type, **extra)


def body(response):
    """The decoded JSON body, keys in the order they were sent."""
    return json.loads(response.content)


def error(name, message, code, class_name, **rest):
    """The Feathers error JSON, for exact comparisons (dict order is compared via lists)."""
    return {"name": name, "message": message, "code": code, "className": class_name, **rest}


def assert_error(response, name, message, code, class_name, **rest):
    """Assert an exact Feathers error answer, keys in Feathers' order."""
    expected = error(name, message, code, class_name, **rest)
    assert response.status_code == code, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    got = body(response)
    assert got == expected
    assert list(got) == list(expected)

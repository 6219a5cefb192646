"""
Bodies sent with `Transfer-Encoding: chunked` (no `Content-Length`), over real HTTP, against the
conformance fixture served three ways: gunicorn and uvicorn hand the whole body over and it is
read; Django's own WSGI server (`runserver`) does not, and the request is refused with 411. A
chunked body is never taken for an empty one.
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from tests.servers import ProcessServer

from ..conformance_servers import REPOSITORY, Deployment, conformance_servers


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    log_dir: Path = tmp_path_factory.mktemp("chunked-bodies")
    with conformance_servers(log_dir, count=1, label="chunked") as started:
        yield started


def reading(name: str, deployment: Deployment) -> ProcessServer:
    """The fixture under gunicorn or uvicorn, on the deployment's database."""
    if name == "gunicorn":
        arguments = ["-m", "gunicorn", "--workers", "1", "--threads", "4"]
        arguments += ["--bind", "127.0.0.1:{port}", "django.core.wsgi:get_wsgi_application()"]
    else:
        arguments = ["-m", "uvicorn", "--factory", "--host", "127.0.0.1", "--port", "{port}"]
        arguments += ["django.core.asgi:get_asgi_application"]
    return ProcessServer(
        name,
        [sys.executable, *arguments],
        cwd=REPOSITORY,
        log_dir=deployment.log_dir,
        env={
            **deployment.servers[0].env,
            "DJANGO_SETTINGS_MODULE": "tests.interop.conformance.settings",
        },
        ready_path="/people",
    )


@pytest.fixture(scope="module", params=["gunicorn", "uvicorn"])
def reading_server(request: pytest.FixtureRequest, deployment: Deployment) -> Iterator[str]:
    with reading(request.param, deployment) as server:
        yield server.url


def send_chunked(url: str, method: str, path: str, body: bytes) -> tuple[int, dict, Any]:
    """Send `body` in chunks of at most 7 bytes, without Content-Length; return the answer."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        chunks = (body[start : start + 7] for start in range(0, len(body), 7))
        connection.request(
            method,
            path,
            body=chunks,
            headers={"Content-Type": "application/json", "Accept": "application/json"},
            encode_chunked=True,
        )
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read())
    finally:
        connection.close()


def send_chunked_at_once(url: str, method: str, path: str, body: bytes) -> tuple[int, Any]:
    """
    Send `body` as one chunk, the whole request in one write, and return the answer. A server
    that refuses chunked bodies answers on the headers and closes: a client still writing
    chunks then may find the connection reset before it reads the answer.
    """
    parts = urlsplit(url)
    request = (
        f"{method} {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        "Content-Type: application/json\r\nAccept: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode() + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as raw:
        raw.sendall(request)
        response = http.client.HTTPResponse(raw)
        response.begin()
        return response.status, json.loads(response.read())


def test_a_chunked_patch_is_applied(reading_server):
    todo = requests.post(reading_server + "/todos", json={"text": "before"}, timeout=30).json()
    body = json.dumps({"text": "after", "complete": True}).encode()
    status, _, answer = send_chunked(reading_server, "PATCH", f"/todos/{todo['id']}", body)
    assert (status, answer) == (200, {"id": todo["id"], "text": "after", "complete": True})
    assert requests.get(f"{reading_server}/todos/{todo['id']}", timeout=30).json() == answer


def test_a_chunked_create_is_applied(reading_server):
    body = json.dumps([{"name": "Ada", "age": 36}, {"name": "Bob"}]).encode()
    status, _, answer = send_chunked(reading_server, "POST", "/people", body)
    assert status == 201
    assert [(person["name"], person["age"]) for person in answer] == [("Ada", 36), ("Bob", None)]


def test_a_chunked_body_that_is_not_json_is_a_400(reading_server):
    status, _, answer = send_chunked(reading_server, "POST", "/todos", b'{"text": ')
    assert status == 400
    assert answer["name"] == "BadRequest"
    assert answer["message"].startswith("Invalid JSON in the body")


def test_a_chunked_body_larger_than_the_limit_is_a_400(reading_server):
    text = "x" * (2621440 + 10)  # Django's default DATA_UPLOAD_MAX_MEMORY_SIZE, and more
    status, _, answer = send_chunked(
        reading_server, "POST", "/todos", json.dumps({"text": text}).encode()
    )
    assert status == 400
    assert answer["message"] == "The request body is too large: at most 2621440 bytes are allowed."


def test_a_server_that_does_not_decode_chunks_refuses_them_with_411(deployment):
    url = deployment.urls[0]
    todo = requests.post(url + "/todos", json={"text": "before"}, timeout=30).json()
    body = json.dumps({"text": "after"}).encode()
    status, answer = send_chunked_at_once(url, "PATCH", f"/todos/{todo['id']}", body)
    assert (status, answer) == (
        411,
        {
            "name": "LengthRequired",
            "message": "This server cannot read a body sent with Transfer-Encoding: chunked: "
            "send it with a Content-Length header.",
            "code": 411,
            "className": "length-required",
        },
    )
    assert requests.get(f"{url}/todos/{todo['id']}", timeout=30).json() == todo
    status, answer = send_chunked_at_once(
        url, "POST", "/todos", json.dumps({"text": "new"}).encode()
    )
    assert (status, answer["name"]) == (411, "LengthRequired")

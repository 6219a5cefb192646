"""Round trips over real HTTP on loopback, against Django's live server."""

from __future__ import annotations

import http.client
import json
from urllib.parse import quote, urlsplit

import pytest
import requests

from django_services.query.codec import stringify
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture
from tests.server.http import M, S

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "people": {
                "class": M + "PersonService",
                "multi": True,
                "paginate": {"default": 2, "max": 10},
            },
            "custom": M + "PersonCustomIdService",
            "echo": S + "EchoService",
            "none": S + "NoneService",
            "protected": S + "ProtectedService",
        }
    )


@pytest.fixture
def call(live_server):
    session = requests.Session()
    session.headers["Accept"] = "application/json"
    base = live_server.url
    yield lambda method, path, **kwargs: session.request(method, base + path, timeout=10, **kwargs)
    session.close()


def test_crud_round_trip(call):
    created = call("POST", "/people", json={"name": "Ada", "age": 36})
    assert created.status_code == 201
    assert created.headers["Content-Type"] == "application/json; charset=utf-8"
    ada = created.json()
    assert ada == {"id": ada["id"], "name": "Ada", "age": 36, "created": False}

    batch = call("POST", "/people", json=[{"name": "Bob", "age": 20}, {"name": "Cy", "age": 50}])
    assert [person["name"] for person in batch.json()] == ["Bob", "Cy"]

    query = stringify({"age": {"$gte": 20}, "$sort": {"age": -1}, "$select": ["name"]})
    page = call("GET", f"/people?{query}")
    assert page.text == (
        '{"total":3,"limit":2,"skip":0,"data":'
        f'[{{"id":{batch.json()[1]["id"]},"name":"Cy"}},{{"id":{ada["id"]},"name":"Ada"}}]}}'
    )

    assert call("GET", f"/people/{ada['id']}").json()["name"] == "Ada"
    patched = call("PATCH", f"/people/{ada['id']}", json={"age": 37}).json()
    assert (patched["name"], patched["age"]) == ("Ada", 37)
    replaced = call("PUT", f"/people/{ada['id']}", json={"name": "Ada L."}).json()
    assert (replaced["name"], replaced["age"]) == ("Ada L.", None)

    query = stringify({"age": {"$lt": 30}})
    assert [
        p["name"] for p in call("PATCH", f"/people?{query}", json={"created": True}).json()
    ] == ["Bob"]
    removed = call("DELETE", f"/people/{ada['id']}")
    assert (removed.status_code, removed.json()["name"]) == (200, "Ada L.")
    assert call("GET", f"/people/{ada['id']}").status_code == 404
    assert len(call("DELETE", "/people").json()) == 2
    assert call("GET", "/people").json()["total"] == 0


def test_error_json_is_exact_on_the_wire(call):
    response = call("GET", "/people/999")
    assert response.status_code == 404
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.text == (
        '{"name":"NotFound","message":"No record found for id \'999\'","code":404,'
        '"className":"not-found"}'
    )
    response = call("GET", "/nowhere?x=1")
    assert response.text == (
        '{"name":"NotFound","message":"Page not found","code":404,"className":"not-found",'
        '"data":{"url":"/nowhere?x=1"}}'
    )
    response = call("POST", "/people", json={"age": "x"})
    assert response.text == (
        '{"name":"BadRequest","message":"name: This field is required.; age: A valid integer '
        'is required.","code":400,"className":"bad-request","errors":{"name":["This field is '
        'required."],"age":["A valid integer is required."]}}'
    )
    response = call("POST", "/people", data=b"{oops", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["name"] == "BadRequest"


def test_custom_methods_and_405s(call):
    response = call("POST", "/echo", json={"a": 1}, headers={"X-Service-Method": "shout"})
    assert (response.status_code, response.json()["method"]) == (200, "shout")
    response = call("POST", "/echo", json={}, headers={"X-Service-Method": "nope"})
    assert response.text == (
        '{"name":"MethodNotAllowed","message":"Method `nope` is not supported by this '
        'endpoint.","code":405,"className":"method-not-allowed"}'
    )
    response = call("OPTIONS", "/echo")
    assert response.json()["message"] == "Method OPTIONS not allowed"


def test_missing_credentials_are_401(call):
    response = call("GET", "/protected")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="api"'
    assert response.json()["name"] == "NotAuthenticated"


def test_no_content(call):
    response = call("GET", "/none")
    assert response.status_code == 204
    assert response.content == b""


def test_ids_and_queries_are_decoded_once(call):
    call("POST", "/custom", json={"customid": "a b%20é", "name": "Odd"})
    response = call("GET", "/custom/" + quote("a b%20é", safe=""))
    assert response.json()["customid"] == "a b%20é"
    query = stringify({"name": "Odd", "$select": ["customid"]})
    assert call("GET", f"/custom?{query}").json() == [{"customid": "a b%20é"}]
    answer = call("GET", "/echo/x%2520y?q=a%2Bb+c").json()
    assert (answer["id"], answer["query"]) == ("x%20y", {"q": "a+b c"})


def test_head_answers_like_get_without_a_body(live_server):
    parts = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", "/echo/1")
        get = connection.getresponse()
        get_body = get.read()
        connection.request("HEAD", "/echo/1")
        head = connection.getresponse()
        assert head.status == 200
        assert head.getheader("Content-Type") == "application/json; charset=utf-8"
        assert head.read() == b""
        assert json.loads(get_body)["method"] == "get"
        # A body sent after the HEAD headers would be read here as the next status line.
        connection.request("GET", "/echo")
        assert json.loads(connection.getresponse().read())["method"] == "find"
    finally:
        connection.close()

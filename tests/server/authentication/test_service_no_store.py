"""
No answer of the authentication service may be stored by a cache (RFC 6749, 5.1): every one,
errors included, says `Cache-Control: no-store` and `Pragma: no-cache`. Over real HTTP.
"""

from __future__ import annotations

import pytest
import requests
from django.core.cache import cache

from tests.harness import join_live_server_threads

from .conftest import EMAIL, PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def call(live_server):
    cache.clear()
    with requests.Session() as session:
        yield lambda method, path, **kwargs: session.request(
            method, live_server.url + path, timeout=10, **kwargs
        )
    join_live_server_threads()
    cache.clear()


def assert_not_stored(response):
    directives = {part.strip() for part in response.headers["Cache-Control"].split(",")}
    assert "no-store" in directives, response.headers
    assert response.headers["Pragma"] == "no-cache"


def login(call, **changes):
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD, **changes}
    return call("POST", "/authentication", json=body)


def test_every_answer_of_the_authentication_service_is_not_stored(call, user, configure):
    configure(THROTTLE_RATE="2/min")
    created = login(call)
    token = created.json()["accessToken"]
    answers = {
        "login": created,
        "wrong password": login(call, password="wrong"),
        "throttled": login(call),
        "jwt": call("POST", "/authentication", json={"strategy": "jwt", "accessToken": token}),
        "bad jwt": call("POST", "/authentication", json={"strategy": "jwt", "accessToken": "x"}),
        "malformed": call(
            "POST",
            "/authentication",
            data=b'{"strategy":',
            headers={"Content-Type": "application/json"},
        ),
        "no method": call("GET", "/authentication"),
        "options": call("OPTIONS", "/authentication"),
        "logout": call("DELETE", "/authentication", headers={"Authorization": f"Bearer {token}"}),
    }
    statuses = {name: response.status_code for name, response in answers.items()}
    assert statuses == {
        "login": 201,
        "wrong password": 401,
        "throttled": 429,
        "jwt": 201,
        "bad jwt": 401,
        "malformed": 400,
        "no method": 405,
        "options": 405,
        "logout": 200,
    }
    for response in answers.values():
        assert_not_stored(response)


def test_other_services_keep_their_own_caching(call, user):
    token = login(call).json()["accessToken"]
    response = call("GET", "/whoami", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert "Pragma" not in response.headers

"""The client and the server read one Feathers vocabulary, so what one sends the other resolves."""

import pytest

from django_services.client._base import build_request
from django_services.contract import (
    EVENTS,
    METHODS_WITH_ID,
    MULTI_METHODS,
    SERVICE_METHOD_HEADER,
    STANDARD_METHODS,
)
from django_services.server.rest.views import http_methods_for, resolve_method


@pytest.mark.parametrize("method", [*STANDARD_METHODS, "markRead"])
def test_the_server_resolves_the_method_the_client_sends(method):
    id = 7 if method in METHODS_WITH_ID else None
    request = build_request(method, "http://api", "todos", id=id, data={"text": "x"})

    header = request.headers.get(SERVICE_METHOD_HEADER)
    assert resolve_method(request.method, has_id=id is not None, header=header) == method
    assert request.method in http_methods_for([method])


@pytest.mark.parametrize("method", ["patch", "remove"])
def test_a_multi_write_is_sent_without_an_id_and_resolved_as_such(method):
    request = build_request(method, "http://api", "todos", data={"read": True})

    assert request.url == "http://api/todos"
    assert resolve_method(request.method, has_id=False, header=None) == method


def test_every_write_method_names_its_event():
    assert set(EVENTS) == set(STANDARD_METHODS) - {"find", "get"}
    assert set(MULTI_METHODS) <= set(EVENTS)

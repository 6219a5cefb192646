"""Paths to services (CONTRACT §1): slashes, placeholders, precedence, decoding, 404s."""

from __future__ import annotations

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIHandler
from django.test import override_settings

from django_services.server.registry import (
    Route,
    Router,
    get_service,
    normalize_path,
    register,
    services,
    unregister,
)
from tests.server import echo_services as test_services
from tests.server.http import M, S, assert_error, body

ECHO = S + "EchoService"


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "echo": ECHO,
            "api/v1/messages": ECHO,
            "users/:userId/notes": ECHO,
            "messages": ECHO,
            "messages/stats": S + "ReadOnlyService",
            "teams/:teamId/members/:memberId/roles": ECHO,
        }
    )


def page_not_found(response, url):
    assert_error(response, "NotFound", "Page not found", 404, "not-found", data={"url": url})


@pytest.mark.parametrize(
    ("path", "method", "id"),
    [
        ("/echo", "find", None),
        ("/echo/", "find", None),
        ("/echo/7", "get", "7"),
        ("/echo/7/", "get", "7"),
        ("/api/v1/messages", "find", None),
        ("/api/v1/messages/12", "get", "12"),
        ("/messages/stats-not", "get", "stats-not"),
    ],
)
def test_service_paths(api, path, method, id):
    response = api.get(path)
    assert response.status_code == 200
    answer = body(response)
    assert answer["method"] == method
    assert answer.get("id") == id


@pytest.mark.parametrize(
    "path",
    ["/ECHO", "/Echo/1", "/echo/1/extra", "/api/v1", "/api//v1/messages", "/nothing", "/api"],
)
def test_unknown_paths_are_page_not_found(api, path):
    page_not_found(api.get(path), path)


def test_page_not_found_has_the_query_string_and_answers_every_verb(api):
    page_not_found(api.get("/nothing/here?x=1&y[z]=2"), "/nothing/here?x=1&y[z]=2")
    page_not_found(api.delete("/nothing"), "/nothing")
    page_not_found(api.generic("TRACE", "/nothing"), "/nothing")


def test_static_name_beats_placeholder_whatever_the_order(api, serve):
    for services_in_order in (
        {"messages": ECHO, "messages/stats": S + "ReadOnlyService"},
        {"messages/stats": S + "ReadOnlyService", "messages": ECHO},
    ):
        serve(services_in_order)
        assert body(api.get("/messages/stats")) == []  # ReadOnlyService.find
        assert body(api.get("/messages/stats/3")) == {"id": "3"}
        assert body(api.get("/messages/3"))["method"] == "get"


def test_placeholders_land_in_params_route(api):
    answer = body(api.get("/users/42/notes"))
    assert answer["method"] == "find"
    assert answer["route"] == {"userId": "42"}
    answer = body(api.get("/users/42/notes/7"))
    assert (answer["method"], answer["id"], answer["route"]) == ("get", "7", {"userId": "42"})
    answer = body(api.get("/teams/t1/members/m2/roles/r3"))
    assert answer["route"] == {"teamId": "t1", "memberId": "m2"}
    assert answer["id"] == "r3"


def test_placeholder_service_and_service_with_id_share_a_prefix(api, serve):
    serve({"users": ECHO, "users/:userId/notes": ECHO})
    assert body(api.get("/users/5"))["id"] == "5"
    answer = body(api.get("/users/5/notes"))
    assert (answer["method"], answer["route"]) == ("find", {"userId": "5"})
    page_not_found(api.get("/users/5/other"), "/users/5/other")


def test_ids_and_route_params_are_decoded_once(api):
    answer = body(api.get("/users/a%20b%C3%A9/notes/x%2520y"))
    assert answer["route"] == {"userId": "a bé"}
    assert answer["id"] == "x%20y"


def test_ids_and_route_params_may_hold_newlines(api):
    answer = body(api.get("/users/a%0Ab/notes/%0A"))
    assert (answer["route"], answer["id"]) == ({"userId": "a\nb"}, "\n")
    page_not_found(api.get("/nothing%0A"), "/nothing%0A")


def test_encoded_slash_in_id_with_gunicorn_raw_uri(api):
    response = api.get("/echo/a%2Fb", RAW_URI="/echo/a%2Fb?x=1")
    assert body(response)["id"] == "a/b"
    response = api.get("/users/a%2Fb/notes/c%2Fd", RAW_URI="/users/a%2Fb/notes/c%2Fd")
    answer = body(response)
    assert (answer["route"], answer["id"]) == ({"userId": "a/b"}, "c/d")


def test_encoded_slash_without_raw_path_is_a_separator(api):
    # WSGI servers hand Django a decoded PATH_INFO: "a%2Fb" arrives as two segments.
    page_not_found(api.get("/echo/a%2Fb"), "/echo/a/b")


def test_raw_path_that_does_not_match_the_path_is_ignored(api):
    response = api.get("/echo/7", RAW_URI="/proxy/rewritten/7")
    assert body(response)["id"] == "7"


async def asgi_get(path: str, raw_path: bytes, root_path: str = "") -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": raw_path,
        "root_path": root_path,
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(ASGIHandler(), scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=5)
    content = b""
    while True:
        message = await communicator.receive_output(timeout=5)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=5)
    return start["status"], content


async def test_encoded_slash_in_id_with_asgi_raw_path():
    status, content = await asgi_get("/echo/a/b", b"/echo/a%2Fb")
    assert status == 200
    assert b'"id":"a/b"' in content
    status, content = await asgi_get("/users/x/y/notes", b"/users/x%2fy/notes")
    assert status == 200
    assert b'"route":{"userId":"x/y"}' in content


@override_settings(ROOT_URLCONF="tests.server.urls_prefixed")
def test_services_mounted_under_a_prefix(api):
    assert body(api.get("/api/echo/3"))["id"] == "3"
    assert body(api.get("/api/users/9/notes"))["route"] == {"userId": "9"}
    assert body(api.get("/api/echo/a%2Fb", RAW_URI="/api/echo/a%2Fb"))["id"] == "a/b"
    page_not_found(api.get("/api/nothing?q=1"), "/api/nothing?q=1")
    # Outside the mount, Django's own 404 answers.
    response = api.get("/echo")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert body(api.get("/other/"))["other"] is True


def test_head_behaves_like_get(api):
    response = api.head("/echo/5")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.content == b""
    response = api.head("/nothing")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json; charset=utf-8"


def test_services_registered_in_code(api, serve):
    serve({})
    register("in/code/:kind", test_services.EchoService, methods=["find"])
    try:
        answer = body(api.get("/in/code/k"))
        assert (answer["method"], answer["route"]) == ("find", {"kind": "k"})
        assert_error(
            api.get("/in/code/k/1"),
            "MethodNotAllowed",
            "Method `get` is not supported by this endpoint.",
            405,
            "method-not-allowed",
        )
        with pytest.raises(ImproperlyConfigured, match="already registered"):
            register("/in/code/:kind/", test_services.EchoService)
    finally:
        unregister("in/code/:kind")
    page_not_found(api.get("/in/code/k"), "/in/code/k")


def test_services_with_options_in_settings(api, serve):
    serve({"echo": {"class": ECHO, "methods": ["get"]}})
    assert body(api.get("/echo/1"))["id"] == "1"
    assert api.get("/echo").status_code == 405


def test_settings_changes_are_seen(api, serve):
    serve({"first": ECHO})
    assert api.get("/first").status_code == 200
    serve({"second": ECHO})
    assert api.get("/first").status_code == 404
    assert api.get("/second").status_code == 200


@pytest.mark.parametrize(
    ("services_setting", "message"),
    [
        ({"echo": "tests.server.echo_services.Missing"}, "Could not import"),
        ({"echo": {"methods": ["find"]}}, "under 'class'"),
        ({"echo": "tests.server.echo_services.describe"}, "must be a Service"),
        ({"a//b": ECHO}, "empty segment"),
        ({"a/:": ECHO}, "placeholder without a name"),
        ({"a/:x/b/:x": ECHO}, "twice"),
        ({"/": ECHO}, "is empty"),
        ({"echo": {"class": ECHO, "paginate_me": True}}, "has no option 'paginate_me'"),
        ({"echo": {"class": ECHO, "methods": ["find", "fly"]}}, "does not implement"),
        ({"echo": {"class": ECHO, "multi": ["find"]}}, "must be True, False or a list"),
        ({"p": {"class": M + "PersonService", "id_field": "name"}}, "must be a unique field"),
        ({"p": {"class": M + "PersonService", "id_field": "nope"}}, "is neither"),
        ({"p": {"class": M + "PersonService", "query_fields": ["nope"]}}, "does not have"),
        ({"p": {"class": M + "PersonService", "sort_fields": ["nope"]}}, "not queryable"),
        ({"p": {"class": M + "PersonService", "paginate": {"size": 1}}}, "'default' and 'max'"),
        ({"p": {"class": M + "PersonService", "paginate": {"max": -1}}}, "non-negative"),
    ],
)
def test_misconfigured_services_are_reported(serve, services_setting, message):
    from django_services.checks import check_services

    serve(services_setting)
    errors = check_services()
    assert len(errors) == 1
    assert message in errors[0].msg
    assert errors[0].id == "django_services.E010"


def test_duplicate_paths_are_refused():
    router = Router([Route("a/:x", object)])
    with pytest.raises(ImproperlyConfigured, match="Two services"):
        router.add(Route("a/:x", object))
    assert normalize_path("/a/b/") == "a/b"


def test_get_service_gives_an_instance_for_internal_calls(serve):
    from django_services.server import Params

    serve({"users/:userId/notes": {"class": ECHO, "multi": True}})
    service = get_service("users/:userId/notes")
    assert service.path == "users/:userId/notes"
    assert service.multi is True
    assert service.find(Params(route={"userId": "1"}))["provider"] is None
    with pytest.raises(KeyError, match="No service is registered at 'nope'"):
        get_service("nope")
    assert [route.path for route in services.routes()] == ["users/:userId/notes"]


def test_authentication_service_is_served_when_configured(api, serve):
    secret = "a-test-secret-for-the-server-tests-that-is-long-enough-for-hs512-0123456789"
    serve({"echo": ECHO}, AUTHENTICATION={"SECRET": secret, "SERVICE_PATH": "/auth/v1/"})
    # The authentication service implements create and remove only.
    assert_error(
        api.get("/auth/v1"),
        "MethodNotAllowed",
        "Method `find` is not supported by this endpoint.",
        405,
        "method-not-allowed",
    )
    serve({"echo": ECHO})
    page_not_found(api.get("/auth/v1"), "/auth/v1")

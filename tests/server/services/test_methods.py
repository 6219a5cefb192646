"""HTTP verbs to service methods, X-Service-Method, custom methods and every 405 (CONTRACT §1)."""

from __future__ import annotations

import pytest

from django_services.server import Service, service_method
from tests.server.http import S, assert_error, body, send

ECHO = S + "EchoService"


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "echo": ECHO,
            "multi": {"class": ECHO, "multi": True},
            "readonly": S + "ReadOnlyService",
            "limited": {"class": ECHO, "methods": ["find", "patch", "shout"]},
            "none": S + "NoneService",
            "protected": S + "ProtectedService",
            "failing": S + "FailingService",
            "aliased": "tests.server.services.test_methods.AliasedService",
        }
    )


def not_supported(response, method):
    assert_error(
        response,
        "MethodNotAllowed",
        f"Method `{method}` is not supported by this endpoint.",
        405,
        "method-not-allowed",
    )


@pytest.mark.parametrize(
    ("verb", "path", "status", "method", "id"),
    [
        ("GET", "/echo", 200, "find", None),
        ("GET", "/echo/1", 200, "get", "1"),
        ("POST", "/echo", 201, "create", None),
        ("POST", "/echo/1", 201, "create", None),  # an id on POST is ignored, as in Feathers
        ("PUT", "/echo/1", 200, "update", "1"),
        ("PATCH", "/echo/1", 200, "patch", "1"),
        ("DELETE", "/echo/1", 200, "remove", "1"),
        ("PATCH", "/multi", 200, "patch", None),
        ("DELETE", "/multi", 200, "remove", None),
    ],
)
def test_verbs_call_the_standard_methods(api, verb, path, status, method, id):
    data = {"text": "hi"} if verb in ("POST", "PUT", "PATCH") else None
    response = send(api, verb, path + "?a=1", data) if data else send(api, verb, path + "?a=1")
    assert response.status_code == status
    answer = body(response)
    assert answer["method"] == method
    assert answer.get("id") == id
    assert answer["query"] == {"a": "1"}
    if data:
        assert answer["data"] == data


def test_multi_create_passes_the_array(api):
    response = send(api, "POST", "/multi", [{"a": 1}, {"a": 2}])
    assert response.status_code == 201
    assert body(response)["data"] == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize(
    ("verb", "path", "data", "message"),
    [
        ("POST", "/echo", [{"a": 1}], "Can not create multiple entries"),
        ("POST", "/echo", [], "Can not create multiple entries"),
        ("PATCH", "/echo", {"a": 1}, "Can not patch multiple entries"),
        ("DELETE", "/echo", None, "Can not remove multiple entries"),
    ],
)
def test_multi_is_off_by_default(api, verb, path, data, message):
    response = send(api, verb, path, data) if data is not None else send(api, verb, path)
    assert_error(response, "MethodNotAllowed", message, 405, "method-not-allowed")


def test_multi_list_allows_only_the_listed_methods(api, serve):
    serve({"echo": {"class": ECHO, "multi": ["remove"]}})
    assert send(api, "DELETE", "/echo").status_code == 200
    assert send(api, "PATCH", "/echo", {}).status_code == 405
    assert send(api, "POST", "/echo", []).status_code == 405


def test_multi_default_comes_from_settings(api, serve):
    serve({"echo": ECHO}, MULTI=["create"])
    assert send(api, "POST", "/echo", []).status_code == 201
    assert send(api, "DELETE", "/echo").status_code == 405


@pytest.mark.parametrize("data", [{"a": 1}, [{"a": 1}]])
def test_update_without_id_is_bad_request(api, data):
    assert_error(
        send(api, "PUT", "/multi", data),
        "BadRequest",
        "You can not replace multiple instances. Did you mean 'patch'?",
        400,
        "bad-request",
    )


def test_custom_method_over_post(api):
    response = send(api, "POST", "/echo?x=1", {"text": "hi"}, HTTP_X_SERVICE_METHOD="shout")
    assert response.status_code == 200
    assert body(response) == {
        "method": "shout",
        "data": {"text": "hi"},
        "query": {"x": "1"},
        "route": {},
        "provider": "rest",
    }
    # An id segment is allowed and ignored.
    response = send(api, "POST", "/echo/9", [1, 2], HTTP_X_SERVICE_METHOD="whisper")
    assert (response.status_code, body(response)["data"]) == (200, [1, 2])


def test_custom_method_returning_none_is_204(api):
    response = send(api, "POST", "/none", {}, HTTP_X_SERVICE_METHOD="ping")
    assert response.status_code == 204
    assert response.content == b""
    assert "Content-Type" not in response


@pytest.mark.parametrize(
    ("verb", "path"),
    [("GET", "/none"), ("GET", "/none/1"), ("POST", "/none")],
)
def test_none_result_is_204_without_body(api, verb, path):
    response = send(api, verb, path, {"a": 1}) if verb == "POST" else send(api, verb, path)
    assert response.status_code == 204
    assert response.content == b""


def test_header_is_ignored_on_other_verbs_unless_it_names_a_standard_method(api):
    assert body(send(api, "GET", "/echo/5", HTTP_X_SERVICE_METHOD="shout"))["method"] == "get"
    response = send(api, "PATCH", "/echo/5", {}, HTTP_X_SERVICE_METHOD="shout")
    assert body(response)["method"] == "patch"
    not_supported(send(api, "GET", "/echo", HTTP_X_SERVICE_METHOD="find"), "find")
    not_supported(send(api, "PATCH", "/echo/5", {}, HTTP_X_SERVICE_METHOD="create"), "patch")
    not_supported(send(api, "DELETE", "/echo/5", HTTP_X_SERVICE_METHOD="remove"), "remove")


@pytest.mark.parametrize("name", ["find", "get", "create", "update", "patch", "remove"])
def test_header_naming_a_standard_method_is_405_on_post(api, name):
    not_supported(send(api, "POST", "/echo", {}, HTTP_X_SERVICE_METHOD=name), name)


@pytest.mark.parametrize(
    "name", ["fly", "describe", "dispatch", "get_queryset", "handle_call", "__init__", "Shout"]
)
def test_undeclared_names_are_405(api, name):
    not_supported(send(api, "POST", "/echo", {}, HTTP_X_SERVICE_METHOD=name), name)


def test_empty_header_is_no_header(api):
    response = send(api, "POST", "/echo", {}, HTTP_X_SERVICE_METHOD="")
    assert (response.status_code, body(response)["method"]) == (201, "create")


@pytest.mark.parametrize(
    ("verb", "path", "method"),
    [
        ("POST", "/readonly", "create"),
        ("PUT", "/readonly/1", "update"),
        ("PUT", "/readonly", "update"),
        ("PATCH", "/readonly/1", "patch"),
        ("PATCH", "/readonly", "patch"),
        ("DELETE", "/readonly/1", "remove"),
        ("DELETE", "/readonly", "remove"),
        ("GET", "/limited/1", "get"),
        ("POST", "/limited", "create"),
        ("POST", "/limited", "whisper"),
    ],
)
def test_methods_not_exposed_are_405(api, verb, path, method):
    headers = {"HTTP_X_SERVICE_METHOD": method} if method == "whisper" else {}
    response = send(api, verb, path, {}, **headers) if verb != "DELETE" else send(api, verb, path)
    not_supported(response, method)


def test_methods_option_exposes_exactly_its_names(api):
    assert body(api.get("/limited"))["method"] == "find"
    assert body(send(api, "PATCH", "/limited/1", {}))["method"] == "patch"
    response = send(api, "POST", "/limited", {}, HTTP_X_SERVICE_METHOD="shout")
    assert body(response)["method"] == "shout"


@pytest.mark.parametrize("verb", ["OPTIONS", "TRACE", "CONNECT", "PROPFIND"])
def test_unmapped_verbs_are_405(api, verb):
    assert_error(
        send(api, verb, "/echo"),
        "MethodNotAllowed",
        f"Method {verb} not allowed",
        405,
        "method-not-allowed",
    )


def test_405_comes_before_authentication(api):
    not_supported(send(api, "POST", "/protected", {}), "create")
    assert api.get("/protected").status_code == 401


def test_allow_header_lists_the_verbs_of_exposed_methods(api):
    assert api.get("/readonly")["Allow"] == "GET, HEAD"
    assert api.get("/limited")["Allow"] == "GET, HEAD, POST, PATCH"
    assert api.get("/echo")["Allow"] == "GET, HEAD, POST, PUT, PATCH, DELETE"


def test_a_method_may_return_a_response(api):
    response = send(api, "POST", "/failing", {}, HTTP_X_SERVICE_METHOD="respond")
    assert response.status_code == 202
    assert response["X-Custom"] == "yes"
    assert body(response) == {"raw": True}


def test_service_method_refuses_standard_and_machinery_names():
    with pytest.raises(TypeError, match="'find' is a standard method"):

        class Standard(Service):
            @service_method
            def find(self, data, params):
                return None

    for name in (
        "dispatch",
        "initial",
        "get_queryset",
        "get_object",
        "as_view",
        "options",
        "finalize_response",
    ):
        with pytest.raises(TypeError, match=f"{name!r} cannot be a custom method name"):
            type("Clash", (Service,), {name: service_method(lambda self, data, params: None)})


class AliasedService(Service):
    @service_method(name="markAllComplete")
    def mark_all_complete(self, data, params):
        return {"called": "mark_all_complete", "data": data}


def test_a_custom_method_may_have_another_name_on_the_wire(api):
    response = send(api, "POST", "/aliased", {"a": 1}, HTTP_X_SERVICE_METHOD="markAllComplete")
    assert response.status_code == 200
    assert body(response) == {"called": "mark_all_complete", "data": {"a": 1}}
    assert AliasedService().get_methods() == {"markAllComplete"}
    refused = send(api, "POST", "/aliased", {}, HTTP_X_SERVICE_METHOD="mark_all_complete")
    not_supported(refused, "mark_all_complete")


def test_two_methods_cannot_share_a_wire_name():
    with pytest.raises(TypeError, match="both declared as the custom method 'go'"):

        class Twice(Service):
            @service_method(name="go")
            def first(self, data, params):
                return None

            @service_method(name="go")
            def second(self, data, params):
                return None


def test_custom_methods_are_inherited():
    from tests.server.echo_services import EchoService

    class Louder(EchoService):
        @service_method
        def roar(self, data, params):
            return data

    assert Louder().get_methods() == {
        "find", "get", "create", "update", "patch", "remove", "shout", "whisper", "roar",
    }  # fmt: skip

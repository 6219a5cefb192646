"""
The OpenAPI schema of the test services: what it describes, and that the server agrees.

The services (`services.py`) cover the options the schema reads: private fields, sort fields,
extra operators, pagination on and off, multi, a `methods` list, a placeholder, custom methods
with type hints, a plain `Service`, and the authentication service.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core import checks
from django.core.management import call_command
from django.db.models import Q
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

from django_services.openapi.conf import SPECTACULAR_DEFAULTS
from django_services.openapi.operations import SERVICE_METHOD_HEADER
from django_services.query import Operator

ERROR_STATUSES = {"400", "401", "403", "404", "405", "406", "429", "500", "503"}
BODY_ERROR_STATUSES = {"409", "411", "413", "415"}


def operations(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (path, verb): operation
        for path, item in schema["paths"].items()
        for verb, operation in item.items()
    }


def parameter_names(operation: dict[str, Any], location: str = "query") -> list[str]:
    return [p["name"] for p in operation.get("parameters", []) if p["in"] == location]


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        section, name = node["$ref"].split("/")[-2:]
        node = schema["components"][section][name]
    return node


def test_drf_spectacular_alone_sees_no_service(openapi_settings):
    # The services are served by one catch-all URL pattern, which its discovery cannot read.
    plain = SchemaGenerator().get_schema(request=None, public=True)

    assert plain["paths"] == {}


def test_the_schema_is_valid_openapi_3_1(schema):
    validate(schema)

    assert schema["openapi"] == "3.1.0"


def test_every_service_method_is_an_operation_and_nothing_else(schema):
    assert set(operations(schema)) == {
        ("/samples", "get"),
        ("/samples", "post"),
        ("/samples", "patch"),
        ("/samples", "delete"),
        ("/samples/{id}", "get"),
        ("/samples/{id}", "put"),
        ("/samples/{id}", "patch"),
        ("/samples/{id}", "delete"),
        ("/users/{userId}/todos", "get"),
        ("/users/{userId}/todos", "post"),
        ("/users/{userId}/todos/{id}", "get"),
        ("/users/{userId}/todos/{id}", "put"),
        ("/users/{userId}/todos/{id}", "patch"),
        ("/users/{userId}/todos/{id}", "delete"),
        ("/notes", "get"),
        ("/notes/{id}", "get"),
        ("/echo", "get"),
        ("/echo/{id}", "get"),
        ("/people", "get"),
        ("/authentication", "post"),
        ("/authentication", "delete"),
        ("/authentication/{id}", "delete"),
    }
    assert {operation["x-feathers-method"] for operation in operations(schema).values()} == {
        "find",
        "get",
        "create",
        "update",
        "patch",
        "remove",
    }


def test_placeholders_are_path_parameters(schema):
    operation = schema["paths"]["/users/{userId}/todos/{id}"]["get"]

    assert parameter_names(operation, "path") == ["userId", "id"]
    assert operation["parameters"][1]["schema"] == {"type": "integer"}


def test_private_fields_are_in_request_bodies_only(schema):
    components = schema["components"]["schemas"]

    assert "secret" not in components["Sample"]["properties"]
    assert "secret" in components["SampleRequest"]["properties"]
    assert "id" not in components["SampleRequest"]["properties"]
    select = schema["paths"]["/samples"]["get"]["parameters"]
    selectable = next(p for p in select if p["name"] == "$select[]")["schema"]["items"]["enum"]
    assert "secret" not in selectable
    assert "secret" not in parameter_names(schema["paths"]["/samples"]["get"])


def test_the_query_language_of_each_field(schema):
    find = schema["paths"]["/notes"]["get"]
    comparisons = ["$in][]", "$nin][]", "$lt]", "$lte]", "$gt]", "$gte]", "$ne]"]

    # query_fields = ["text"]: the text and the id, each with every operator.
    assert parameter_names(find) == [
        "$limit",
        "$skip",
        "$sort",
        "$select[]",
        "id",
        *(f"id[{operator}" for operator in comparisons),
        "text",
        *(f"text[{operator}" for operator in comparisons),
    ]
    samples = parameter_names(schema["paths"]["/samples"]["get"])
    # $like and $ilike are enabled, for text fields only.
    assert {"char[$like]", "char[$ilike]", "text[$like]"} <= set(samples)
    assert "char[$notlike]" not in samples
    assert "integer[$like]" not in samples
    sort = next(p for p in schema["paths"]["/samples"]["get"]["parameters"] if p["name"] == "$sort")
    assert sort["style"] == "deepObject"
    assert list(sort["schema"]["properties"]) == ["integer", "moment"]


@pytest.fixture
def registered_operators(monkeypatch):
    """`$iexact` for every service, `$startswith` enabled on the samples only."""
    from django_services.query import LookupOperator, operators, register_operator

    from .services import SampleService

    register_operator(LookupOperator("$iexact", "iexact"))
    register_operator(StartsWith)
    monkeypatch.setattr(SampleService, "operators", [*SampleService.operators, "$startswith"])
    yield
    operators.unregister("$iexact")
    operators.unregister("$startswith")


class StartsWith(Operator):
    """Begins with the text."""

    name = "$startswith"
    optional = True

    def filter(self, query_field, value):
        return Q(**{f"{query_field.path}__startswith": value})


def test_a_registered_operator_is_in_the_schema(registered_operators, schema):
    samples = schema["paths"]["/samples"]["get"]["parameters"]
    notes = parameter_names(schema["paths"]["/notes"]["get"])

    # Every service accepts $iexact; $startswith is enabled on the samples alone.
    assert {"id[$iexact]", "text[$iexact]"} <= set(notes)
    assert "text[$startswith]" not in notes
    startswith = next(p for p in samples if p["name"] == "char[$startswith]")
    assert startswith["description"] == "`char` $startswith: Begins with the text."
    validate(schema)


def test_each_method_reads_the_query_it_applies(schema):
    by_operation = {key: parameter_names(op) for key, op in operations(schema).items()}

    assert by_operation[("/samples", "post")] == ["$select[]"]
    assert "$limit" not in by_operation[("/samples/{id}", "get")]
    assert "$select[]" in by_operation[("/samples/{id}", "get")]
    assert "integer[$gt]" in by_operation[("/samples", "delete")]
    assert "$limit" not in by_operation[("/samples", "delete")]
    assert by_operation[("/echo", "get")] == []


def test_find_answers_the_page_envelope_when_paginated(schema):
    def found(path: str) -> dict[str, Any]:
        response = schema["paths"][path]["get"]["responses"]["200"]
        return response["content"]["application/json"]["schema"]

    page = found("/samples")
    assert page["required"] == ["total", "limit", "skip", "data"]
    assert page["properties"]["data"]["type"] == "array"
    assert page["properties"]["limit"]["type"] == "integer"
    assert found("/notes")["type"] == "array"


@pytest.mark.django_db
def test_a_page_without_a_default_size_has_no_limit(schema, client):
    page_schema = schema["paths"]["/people"]["get"]["responses"]["200"]["content"][
        "application/json"
    ]["schema"]

    page = client.get("/people").json()

    assert page["limit"] is None
    OAS31Validator({**page_schema, "components": schema["components"]}).validate(page)


def test_records_answered_with_select_hold_the_selected_fields(schema):
    result = schema["paths"]["/samples/{id}"]["get"]["responses"]["200"]
    records = result["content"]["application/json"]["schema"]["anyOf"]

    assert records[0] == {"$ref": "#/components/schemas/Sample"}
    selection = resolve(schema, records[1])
    assert selection["required"] == ["id"]
    assert set(selection["properties"]) == set(
        schema["components"]["schemas"]["Sample"]["properties"]
    )


def test_multi_create_takes_and_answers_arrays(schema):
    post = schema["paths"]["/users/{userId}/todos"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]

    assert body["anyOf"][0]["oneOf"][1] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/TodoRequest"},
    }
    assert (
        "oneOf"
        not in schema["paths"]["/samples"]["post"]["requestBody"]["content"]["application/json"][
            "schema"
        ]
    )


def test_custom_methods_are_a_post_with_the_method_header(schema):
    post = schema["paths"]["/users/{userId}/todos"]["post"]
    header = next(p for p in post["parameters"] if p["in"] == "header")

    assert header["name"] == SERVICE_METHOD_HEADER
    assert header["required"] is False
    assert header["schema"]["enum"] == ["archive", "markAllComplete"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    # markAllComplete's data hint; archive takes any data, so it adds nothing.
    assert body["anyOf"][1] == {"type": "object", "additionalProperties": {"type": "boolean"}}
    result = post["responses"]["200"]["content"]["application/json"]["schema"]
    assert result == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert "204" in post["responses"]  # archive returns None
    assert "201" in post["responses"]


def test_every_operation_documents_the_feathers_errors(schema):
    for (path, verb), operation in operations(schema).items():
        statuses = set(operation["responses"])
        expected = ERROR_STATUSES | (BODY_ERROR_STATUSES if "requestBody" in operation else set())
        assert expected <= statuses, (path, verb)
    responses = schema["components"]["responses"]
    for response in responses.values():
        body = response["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/FeathersError"}
    assert "Retry-After" in responses["TooManyRequests"]["headers"]
    assert "Retry-After" in responses["Unavailable"]["headers"]
    error = schema["components"]["schemas"]["FeathersError"]
    assert error["required"] == ["name", "message", "code", "className"]


def test_security_follows_the_authentication_and_permission_classes(schema):
    schemes = schema["components"]["securitySchemes"]

    assert schemes["jwtAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": schemes["jwtAuth"]["description"],
    }
    assert schemes["cookieAuth"]["in"] == "cookie"
    assert schemes["cookieAuth"]["name"] == "sessionid"
    # AllowAny: anonymous calls are fine too; IsAuthenticated: a token or a session.
    assert schema["paths"]["/samples"]["get"]["security"] == [
        {"jwtAuth": []},
        {"cookieAuth": []},
        {},
    ]
    assert schema["paths"]["/users/{userId}/todos"]["get"]["security"] == [
        {"jwtAuth": []},
        {"cookieAuth": []},
    ]


@pytest.mark.django_db
def test_a_private_schema_holds_what_the_user_may_call(openapi_settings):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from django_services.openapi.generators import ServicesSchemaGenerator

    def paths_for(user: Any) -> set[str]:
        request = Request(APIRequestFactory().get("/api/schema/"))
        request.user, request.auth = user, None  # as a session login leaves them
        return set(ServicesSchemaGenerator().get_schema(request=request, public=False)["paths"])

    anonymous = paths_for(AnonymousUser())
    user = get_user_model().objects.create_user(email="ada@example.com", password="x" * 12)

    # The todos service needs an authenticated user (IsAuthenticated).
    assert "/users/{userId}/todos" not in anonymous
    assert {"/samples", "/samples/{id}", "/notes", "/authentication"} <= anonymous
    assert paths_for(user) == anonymous | {"/users/{userId}/todos", "/users/{userId}/todos/{id}"}


def test_the_authentication_service(schema):
    login = schema["paths"]["/authentication"]["post"]
    logout = schema["paths"]["/authentication"]["delete"]

    assert login["security"] == [{}]
    assert login["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AuthenticationRequest"
    }
    assert login["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AuthenticationResult"
    }
    assert logout["security"] == [{"jwtAuth": []}]


def test_the_refresh_strategy_is_described_when_it_is_on(openapi_settings, settings):
    from django_services.openapi.generators import ServicesSchemaGenerator

    def schemas() -> dict:
        schema = ServicesSchemaGenerator().get_schema(request=None, public=True)
        return schema["components"]["schemas"]

    off = schemas()
    assert "refreshToken" not in off["AuthenticationRequest"]["properties"]
    assert "refreshToken" not in off["AuthenticationResult"]["properties"]
    assert "refresh" not in off["AuthenticationRequest"]["properties"]["strategy"]["examples"]

    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "AUTHENTICATION": {"AUTH_STRATEGIES": ["local", "jwt", "refresh"]},
    }
    on = schemas()
    request, result = on["AuthenticationRequest"], on["AuthenticationResult"]
    assert "refresh" in request["properties"]["strategy"]["examples"]
    assert request["properties"]["refreshToken"]["type"] == "string"
    assert "`refresh`" in request["description"]
    assert result["properties"]["refreshToken"]["type"] == "string"
    assert "refreshToken" not in result["required"]


def test_spectacular_writes_the_schema_that_is_served(openapi_settings, client, tmp_path):
    target = tmp_path / "schema.json"
    call_command("spectacular", "--file", str(target), "--format", "openapi-json")

    served = client.get("/api/schema/", {"format": "json"})

    assert served.status_code == 200
    assert served.json() == __import__("json").loads(target.read_text())
    assert "/samples" in served.json()["paths"]


def test_the_docs_pages_load_everything_from_static_files(openapi_settings, client):
    for url in ("/api/docs/", "/api/redoc/"):
        page = client.get(url).content.decode()

        assert "/static/drf_spectacular_sidecar/" in page
        assert "cdn." not in page
        assert "https://" not in page
        assert "/api/schema/" in page


def test_the_system_checks_name_missing_settings(openapi_settings):
    from django_services.openapi.checks import check_spectacular_settings

    assert check_spectacular_settings() == []
    with override_settings(SPECTACULAR_SETTINGS={}):
        found = [message.id for message in check_spectacular_settings()]
    assert found == ["django_services.W401", "django_services.W402", "django_services.W403"]
    assert "django_services.W401" not in [
        message.id for message in checks.run_checks() if message.id.startswith("django_services")
    ]


# The server accepts what the schema documents ---------------------------------------------------

EXAMPLES = {
    "integer": "3",
    "boolean": "true",
    "string": "ab",
}


def example(parameter_schema: dict[str, Any]) -> Any:
    kind = parameter_schema.get("type")
    if kind == "array":
        return [example(parameter_schema["items"])]
    if "enum" in parameter_schema:
        return str(parameter_schema["enum"][0])
    if parameter_schema.get("format") == "date-time":
        return "2024-05-01T10:00:00Z"
    if parameter_schema.get("format") == "uuid":
        return str(uuid.uuid4())
    if not kind and "anyOf" in parameter_schema:
        return example(parameter_schema["anyOf"][0])
    return EXAMPLES[kind]


@pytest.mark.django_db
def test_every_documented_query_parameter_is_accepted(schema, client):
    find = schema["paths"]["/samples"]["get"]
    checked = 0
    for parameter in find["parameters"]:
        name = parameter["name"]
        if parameter["in"] != "query":
            continue
        if parameter.get("style") == "deepObject":
            field = next(iter(parameter["schema"]["properties"]))
            query: dict[str, Any] = {f"{name}[{field}]": "-1"}
        else:
            query = {name: example(parameter["schema"])}

        response = client.get("/samples", query)

        assert response.status_code == 200, (name, response.json())
        assert set(response.json()) == {"total", "limit", "skip", "data"}
        checked += 1
    assert checked > 60


@pytest.mark.django_db
def test_an_undocumented_query_parameter_is_refused(schema, client):
    documented = parameter_names(schema["paths"]["/notes"]["get"])
    assert "user_id" not in documented

    response = client.get("/notes", {"user_id": "1"})

    assert response.status_code == 400
    assert response.json()["name"] == "BadRequest"


def test_spectacular_defaults_are_what_the_docs_recommend():
    assert SPECTACULAR_DEFAULTS["DEFAULT_GENERATOR_CLASS"] == (
        "django_services.openapi.generators.ServicesSchemaGenerator"
    )
    assert SPECTACULAR_DEFAULTS["OAS_VERSION"] == "3.1.0"

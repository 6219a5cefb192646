"""
What typed clients read from the schema: records as the server sends them, a login body with
its login field, examples and descriptions that name the service's own fields and methods;
and `manage.py services_types` reading another server's schema.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from django_services.openapi.bodies import _indefinite_article


def test_records_require_every_field_the_server_sends(schema):
    todo = schema["components"]["schemas"]["Todo"]
    request = schema["components"]["schemas"]["TodoRequest"]

    # `complete` has a default: optional to send, always answered.
    assert set(todo["required"]) == {"id", "text", "complete"}
    assert "complete" not in request.get("required", [])


@pytest.mark.parametrize(
    ("name", "article"), [("Order", "An"), ("Item", "An"), ("User", "A"), ("Sample", "A")]
)
def test_a_component_name_takes_its_article(name, article):
    assert _indefinite_article(name) == article


def test_selections_are_named_with_their_article(schema):
    descriptions = {
        name: component.get("description")
        for name, component in schema["components"]["schemas"].items()
        if name.endswith("Selection")
    }

    assert descriptions["SampleSelection"].startswith("A Sample answered with `$select`")
    assert descriptions["TodoSelection"].startswith("A Todo answered")


def test_the_sort_example_names_a_field_of_the_service(schema):
    examples = {}
    for path in ("/notes", "/samples"):
        find = schema["paths"][path]["get"]
        sort = next(p for p in find["parameters"] if p["name"] == "$sort")
        field = sort["description"].split("`$sort[", 1)[1].split("]", 1)[0]
        examples[path] = field in sort["schema"]["properties"]

    assert examples == {"/notes": True, "/samples": True}


def test_a_custom_method_is_described_by_its_docstring(schema):
    post = schema["paths"]["/users/{userId}/todos"]["post"]
    custom = schema["x-feathers-services"]["users/:userId/todos"]["custom"]

    assert (
        "`X-Service-Method: markAllComplete` calls `markAllComplete(data, params)`: Complete "
        "every todo the query matches; answer how many changed." in post["summary"]
    )
    assert custom["markAllComplete"]["description"] == (
        "Complete every todo the query matches; answer how many changed."
    )
    assert "description" not in custom["archive"]


def test_the_login_body_names_the_login_field(schema, openapi_settings, settings):
    login = schema["components"]["schemas"]["AuthenticationRequest"]["properties"]

    assert set(login) == {"strategy", "accessToken", "email", "password"}
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "AUTHENTICATION": {"LOCAL": {"USERNAME_FIELD": "login", "PASSWORD_FIELD": "secret"}},
    }
    from django_services.openapi.components import shared_components

    renamed = shared_components()["schemas"]["AuthenticationRequest"]["properties"]
    assert set(renamed) == {"strategy", "accessToken", "login", "secret"}


def written(capsys, *arguments: str) -> str:
    capsys.readouterr()
    call_command("services_types", "--python", "-", *arguments)
    return capsys.readouterr().out


def test_the_types_of_another_server_are_read_from_its_schema(
    openapi_settings, live_server, capsys, tmp_path
):
    own = written(capsys)
    served = written(capsys, "--schema", f"{live_server.url}/api/schema/")
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    from_file = written(capsys, "--schema", str(target))

    assert served == from_file == own
    assert "UsersUserIdTodosRecord = Todo\n" in served
    assert "    email: str\n" in served  # the login field of AuthenticationRequest


def test_a_schema_without_services_is_refused(openapi_settings, tmp_path):
    target = tmp_path / "plain.json"
    target.write_text(json.dumps({"openapi": "3.1.0", "paths": {}}))

    with pytest.raises(CommandError, match="describes no Feathers services"):
        call_command("services_types", "--python", "-", "--schema", str(target))

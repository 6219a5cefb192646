"""`manage.py services`: every service of the project with its route and options."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.client.services import LIVE_SETTINGS


def run(*args):
    out = StringIO()
    call_command("services", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def services_settings(settings):
    settings.DJANGO_SERVICES = {**LIVE_SETTINGS, "PAGINATE": {"default": 5, "max": 20}}


def parse_table(text):
    """The rows of the table, as dicts keyed by header, cut at the header's column starts."""
    header, *lines = text.splitlines()
    names = ["PATH", "CLASS", "METHODS", "PAGINATE", "MULTI", "ID FIELD"]
    starts = [header.index(name) for name in names]
    ends = [*starts[1:], None]
    return {
        line[: starts[1]].strip(): {
            name: line[start:end].strip()
            for name, start, end in zip(names, starts, ends, strict=True)
        }
        for line in lines
    }


def test_the_table_shows_each_service():
    rows = parse_table(run())

    assert len(rows) == len(LIVE_SETTINGS["SERVICES"]) + 1
    assert rows["todos"] == {
        "PATH": "todos",
        "CLASS": "tests.client.services.TodoService",
        "METHODS": "find get create update patch remove markAllComplete",
        "PAGINATE": "-",
        "MULTI": "yes",
        "ID FIELD": "id",
    }
    assert rows["people"]["PAGINATE"] == "10 (max 3)"
    assert rows["readonly"]["METHODS"] == "find"
    assert rows["tagged"]["ID FIELD"] == "customid"
    assert rows["users/:userId/notes"]["ID FIELD"] == "id"
    assert rows["echo"]["ID FIELD"] == "-"
    assert rows["authentication"]["MULTI"] == "remove"


def test_json_output():
    described = {row["path"]: row for row in json.loads(run("--json"))}

    assert described["todos"] == {
        "path": "todos",
        "class": "tests.client.services.TodoService",
        "methods": ["find", "get", "create", "update", "patch", "remove", "markAllComplete"],
        "paginate": None,
        "multi": True,
        "id_field": "id",
    }
    assert described["people"]["paginate"] == {"default": 10, "max": 3}
    assert described["echo"]["methods"] == [
        "find", "get", "create", "update", "patch", "remove", "shout"
    ]  # fmt: skip
    assert described["echo"]["multi"] is True
    assert described["echo"]["id_field"] is None
    assert described["nothing"]["methods"] == ["remove", "ping"]
    assert described["authentication"]["multi"] == ["remove"]


def test_the_settings_default_pagination(settings):
    settings.DJANGO_SERVICES = {
        "SERVICES": {"items": "tests.client.services.SampleService"},
        "PAGINATE": {"default": 5, "max": 20},
        "MULTI": ["patch"],
    }
    settings.DJANGO_SERVICES["SERVICES"]["things"] = {
        "class": "tests.client.services.PersonService",
        "paginate": {"default": None, "max": 7},
    }

    described = {row["path"]: row for row in json.loads(run("--json"))}
    rows = parse_table(run())

    assert described["items"]["paginate"] is None  # the service says paginate = False
    assert described["items"]["multi"] == ["patch"]
    assert described["things"]["paginate"] == {"default": None, "max": 7}
    assert rows["things"]["PAGINATE"] == "all (max 7)"
    assert rows["items"]["MULTI"] == "patch"


def test_no_services(settings):
    settings.DJANGO_SERVICES = {}

    assert run().strip() == "No services: declare them in DJANGO_SERVICES['SERVICES']."


def test_a_service_that_can_not_be_imported(settings):
    settings.DJANGO_SERVICES = {"SERVICES": {"x": "tests.client.services.Missing"}}

    with pytest.raises(CommandError, match=r"Could not import 'tests\.client\.services\.Missing'"):
        run()

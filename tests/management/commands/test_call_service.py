"""
`manage.py call_service`: a remote service over real HTTP (every connection kind, with the
remote's credentials), or a local one in Python; JSON out, typed errors with exit status 1.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.client.services import LIVE_SETTINGS
from tests.remotes.fixtures import SERVICE_EMAIL


def call(*args):
    """Run the command; return (stdout, stderr, exit status)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("call_service", *args, stdout=out, stderr=err)
    except CommandError as error:
        err.write(f"CommandError: {error}")
        return out.getvalue(), err.getvalue(), error.returncode
    return out.getvalue(), err.getvalue(), 0


def error_of(stderr):
    """The Feathers error the command printed before its summary line."""
    return json.loads(stderr[: stderr.rindex("CommandError:")])


class TestRemote:
    pytestmark = pytest.mark.usefixtures("live_remotes", "users")

    def test_find_with_the_remote_s_credentials(self, kind):
        out, _, status = call("login", "caller", "find")

        assert status == 0
        assert json.loads(out)["email"] == SERVICE_EMAIL
        assert out.startswith('{\n  "email": ')

    def test_create_with_data_and_headers(self, kind):
        out, _, status = call(
            "login", "caller", "create", "--data", '{"text": "hi"}', "--header", "X-Trace: 1"
        )

        assert status == 0
        assert json.loads(out)["data"] == {"text": "hi"}

    def test_a_custom_method_not_declared_in_settings(self, kind):
        out, _, status = call("login", "caller", "stamp", "--data", '{"at": "noon"}')

        assert status == 0
        assert json.loads(out)["stamped"] == {"at": "noon"}

    def test_the_remote_s_error(self, kind):
        out, err, status = call("plain", "caller", "find")

        assert (out, status) == ("", 1)
        assert error_of(err) == {
            "name": "NotAuthenticated",
            "message": "Not authenticated",
            "code": 401,
            "className": "not-authenticated",
        }
        assert err.endswith("CommandError: find on 'caller' failed: NotAuthenticated (401).")

    def test_an_unknown_remote(self, kind):
        _, err, status = call("billing", "invoices", "find")

        assert status == 2
        assert "The remote 'billing' does not exist" in err
        assert "'plain', 'bearer', 'session', 'token', 'login'. Or 'local'" in err


class TestLocal:
    @pytest.fixture(autouse=True)
    def local_services(self, settings, db):
        settings.DJANGO_SERVICES = LIVE_SETTINGS

    def test_create_find_patch_and_remove(self):
        created, _, _ = call("local", "todos", "create", "--data", '{"text": "milk"}')
        todo = json.loads(created)
        found, _, _ = call("local", "todos", "find", "--query", "text=milk&complete=false")
        patched, _, _ = call(
            "local", "todos", "patch", "--id", str(todo["id"]), "--data", '{"complete": true}'
        )
        by_json, _, _ = call("local", "todos", "find", "--query", '{"complete": true}')
        removed, _, status = call("local", "todos", "remove", "--id", str(todo["id"]))

        assert todo == {"id": todo["id"], "text": "milk", "complete": False}
        assert json.loads(found) == [todo]
        assert json.loads(patched) == {**todo, "complete": True}
        assert json.loads(by_json) == [{**todo, "complete": True}]
        assert json.loads(removed) == {**todo, "complete": True}
        assert status == 0

    def test_a_custom_method(self):
        call("local", "todos", "create", "--data", '[{"text": "a"}, {"text": "b"}]')

        out, _, _ = call("local", "todos", "markAllComplete", "--data", "{}")

        assert json.loads(out) == {"updated": 2}

    def test_route_placeholders(self):
        out, _, status = call(
            "local", "users/:userId/notes", "create", "--route", '{"userId": 4}',
            "--data", '{"text": "hello"}',
        )  # fmt: skip

        assert status == 0
        assert json.loads(out)["user_id"] == 4

    def test_not_found(self):
        out, err, status = call("local", "todos", "get", "--id", "999")

        assert (out, status) == ("", 1)
        assert error_of(err)["name"] == "NotFound"
        assert error_of(err)["code"] == 404

    def test_validation_errors_are_bad_requests(self):
        _, err, status = call("local", "todos", "create", "--data", '{"text": "boom"}')

        assert status == 1
        assert error_of(err)["name"] == "BadRequest"
        assert error_of(err)["errors"] == {"text": ["Todos may not explode."]}

    @pytest.mark.parametrize("method", ["dispatch", "update", "initial"])
    def test_only_the_service_s_methods_are_called(self, method):
        _, err, status = call("local", "readonly", method)

        assert status == 1
        assert error_of(err)["name"] == "MethodNotAllowed"

    def test_a_call_as_a_user(self):
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user(email="ann@example.com", password="pw")

        by_login, _, _ = call("local", "whoami", "find", "--user", "ann@example.com")
        by_pk, _, _ = call("local", "whoami", "find", "--user", str(user.pk))
        _, err, status = call("local", "whoami", "find", "--user", "bob@example.com")

        assert json.loads(by_login)["email"] == json.loads(by_pk)["email"] == "ann@example.com"
        assert status == 2
        assert "No user 'bob@example.com'" in err

    def test_multi_follows_the_service(self):
        _, err, status = call("local", "people", "remove")

        assert status == 1
        assert error_of(err)["message"] == "Can not remove multiple entries"

    @pytest.mark.parametrize(
        ("arguments", "words"),
        [
            (["nowhere", "find"], "No service is registered at 'nowhere'"),
            (["todos", "create", "--data", "{text}"], "--data is not valid JSON"),
            (["todos", "find", "--route", "[1]"], "--route must be a JSON object"),
            (["todos", "find", "--query", "a[b][c][d][e][f][g]=1"], "--query: "),
            (["todos", "find", "--header", "no colon"], "must be written 'Name: value'"),
        ],
    )
    def test_usage_errors(self, arguments, words):
        out, err, status = call("local", *arguments)

        assert (out, status) == ("", 2)
        assert words in err

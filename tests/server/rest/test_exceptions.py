"""Every DRF and Django exception answered as Feathers error JSON (CONTRACT §6)."""

from __future__ import annotations

import logging

import pytest

from tests.server.http import S, assert_error, body, send


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "failing": S + "FailingService",
            "protected": S + "ProtectedService",
            "basic": S + "BasicProtectedService",
            "staff": S + "StaffOnlyService",
            "throttled": S + "ThrottledService",
        }
    )


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (
            "feathers-conflict",
            ("Conflict", "Already there", 409, "conflict", {"data": {"field": "name"}}),
        ),
        ("feathers-general", ("GeneralError", "Told you", 500, "general-error", {})),
        (
            "drf-validation",
            (
                "BadRequest",
                "name: This field is required.; age: Ensure this value is greater than or "
                "equal to 0.",
                400,
                "bad-request",
                {
                    "errors": {
                        "name": ["This field is required."],
                        "age": ["Ensure this value is greater than or equal to 0."],
                    }
                },
            ),
        ),
        (
            "drf-validation-list",
            ("BadRequest", "Nope", 400, "bad-request", {"errors": {"non_field_errors": ["Nope"]}}),
        ),
        (
            "django-validation",
            (
                "BadRequest",
                "name: Too short.",
                400,
                "bad-request",
                {"errors": {"name": ["Too short."]}},
            ),
        ),
        (
            "django-validation-plain",
            (
                "BadRequest",
                "Plainly wrong.",
                400,
                "bad-request",
                {"errors": {"non_field_errors": ["Plainly wrong."]}},
            ),
        ),
        ("http404", ("NotFound", "Nothing here", 404, "not-found", {})),
        ("drf-not-found", ("NotFound", "Not found.", 404, "not-found", {})),
        (
            "django-permission",
            (
                "Forbidden",
                "You do not have permission to perform this action.",
                403,
                "forbidden",
                {},
            ),
        ),
        (
            "drf-permission",
            (
                "Forbidden",
                "You do not have permission to perform this action.",
                403,
                "forbidden",
                {},
            ),
        ),
        (
            "drf-not-authenticated",
            (
                "NotAuthenticated",
                "Not authenticated",
                401,
                "not-authenticated",
                {},
            ),
        ),
        ("drf-parse", ("BadRequest", "Malformed request.", 400, "bad-request", {})),
        (
            "drf-method",
            ("MethodNotAllowed", 'Method "GET" not allowed.', 405, "method-not-allowed", {}),
        ),
        (
            "drf-unsupported",
            (
                "BadRequest",
                'Unsupported media type "text/csv" in request. '
                "Send JSON (Content-Type: application/json).",
                400,
                "bad-request",
                {},
            ),
        ),
        ("drf-api", ("GeneralError", "A server error occurred.", 500, "general-error", {})),
        ("drf-teapot", ("BadRequest", "I'm a teapot", 400, "bad-request", {})),
        ("suspicious", ("BadRequest", "Odd", 400, "bad-request", {})),
    ],
)
def test_exceptions_become_feathers_errors(api, failure, expected):
    name, message, code, class_name, rest = expected
    assert_error(api.get(f"/failing/{failure}"), name, message, code, class_name, **rest)


def test_unexpected_exception_is_a_general_error_without_its_message(lenient_api, caplog):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = lenient_api.get("/failing/python")
    assert_error(response, "GeneralError", "Internal server error", 500, "general-error")
    assert b"division" not in response.content
    assert b"Traceback" not in response.content
    records = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert len(records) == 1
    assert records[0].exc_info[0] is ZeroDivisionError


def test_unexpected_exception_reaches_django_test_client(api):
    # Through `got_request_exception`, as for any Django view: error trackers see it too.
    with pytest.raises(ZeroDivisionError):
        api.get("/failing/python")


def test_unexpected_exception_message_shown_with_debug(lenient_api, settings):
    settings.DEBUG = True
    assert_error(
        lenient_api.get("/failing/python"),
        "GeneralError",
        "division by zero",
        500,
        "general-error",
    )


def test_missing_credentials_stay_401_with_a_challenge(api):
    # DRF would answer 403 here: its session class offers no WWW-Authenticate challenge.
    response = api.get("/protected")
    assert_error(
        response,
        "NotAuthenticated",
        "Not authenticated",
        401,
        "not-authenticated",
    )
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.django_db
def test_challenge_of_the_authentication_class_is_kept(api):
    response = api.get("/basic")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Basic realm="api"'
    response = api.get("/basic", HTTP_AUTHORIZATION="Basic bm9ib2R5Ondvbmc=")
    assert_error(
        response,
        "NotAuthenticated",
        "Invalid username/password.",
        401,
        "not-authenticated",
    )
    assert response["WWW-Authenticate"] == 'Basic realm="api"'


def test_feathers_not_authenticated_gets_a_challenge_too(api, serve):
    serve({"failing": S + "FailingService"})
    response = api.get("/failing/drf-not-authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.django_db
def test_lacking_permission_is_403(api):
    from tests.testapp.models import User

    user = User.objects.create_user(email="a@example.com", password="pw")
    api.force_login(user)
    assert body(api.get("/protected")) == {"user": "a@example.com"}
    assert_error(
        api.get("/staff"),
        "Forbidden",
        "You do not have permission to perform this action.",
        403,
        "forbidden",
    )


def test_throttling_is_429_with_retry_after(api):
    assert api.get("/throttled").status_code == 200
    response = api.get("/throttled")
    assert response.status_code == 429
    answer = body(response)
    assert list(answer) == ["name", "message", "code", "className"]
    assert answer["name"] == "TooManyRequests"
    assert answer["className"] == "too-many-requests"
    assert answer["message"].startswith("Request was throttled. Expected available in")
    assert 0 < int(response["Retry-After"]) <= 60


def test_retry_after_is_rounded_up(api):
    response = api.get("/failing/drf-throttled")
    assert response.status_code == 429
    assert response["Retry-After"] == "3"


def test_errors_with_custom_messages_through_the_handler(api):
    response = send(api, "POST", "/failing", {}, HTTP_X_SERVICE_METHOD="respond")
    assert response.status_code == 202

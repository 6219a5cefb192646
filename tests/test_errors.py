import pickle

import pytest

from django_services import errors
from django_services.errors import (
    BadRequest,
    FeathersError,
    Gone,
    NotFound,
    from_json,
)

TABLE = [
    (304, "NotModified", "not-modified"),
    (400, "BadRequest", "bad-request"),
    (401, "NotAuthenticated", "not-authenticated"),
    (402, "PaymentError", "payment-error"),
    (403, "Forbidden", "forbidden"),
    (404, "NotFound", "not-found"),
    (405, "MethodNotAllowed", "method-not-allowed"),
    (406, "NotAcceptable", "not-acceptable"),
    (408, "Timeout", "timeout"),
    (409, "Conflict", "conflict"),
    (410, "Gone", "gone"),
    (411, "LengthRequired", "length-required"),
    (412, "PreconditionFailed", "precondition-failed"),
    (422, "Unprocessable", "unprocessable"),
    (428, "PreconditionRequired", "precondition-required"),
    (429, "TooManyRequests", "too-many-requests"),
    (500, "GeneralError", "general-error"),
    (501, "NotImplemented", "not-implemented"),
    (502, "BadGateway", "bad-gateway"),
    (503, "Unavailable", "unavailable"),
]


@pytest.mark.parametrize(("code", "name", "class_name"), TABLE)
def test_every_class_has_the_contract_name_code_and_class_name(code, name, class_name):
    cls = getattr(errors, name)
    error = cls("boom")
    assert issubclass(cls, FeathersError)
    assert (error.name, error.code, error.class_name, error.className) == (
        name,
        code,
        class_name,
        class_name,
    )
    assert errors.errors[name] is cls
    assert errors.errors[code] is cls


def test_mapping_holds_exactly_the_twenty_classes_by_name_and_code():
    # Feathers' seventeen, and the three of conditional requests (304, 412, 428).
    assert len(errors.ERROR_CLASSES) == 20
    assert len(errors.errors) == 40
    assert errors.errors["Gone"] is Gone


def test_to_json_key_order_and_optional_keys():
    assert list(NotFound("missing").to_json()) == ["name", "message", "code", "className"]
    body = BadRequest("Invalid data", {"errors": {"email": "taken"}, "extra": 1}).to_json()
    assert body == {
        "name": "BadRequest",
        "message": "Invalid data",
        "code": 400,
        "className": "bad-request",
        "data": {"extra": 1},
        "errors": {"email": "taken"},
    }
    assert list(body) == ["name", "message", "code", "className", "data", "errors"]


def test_constructor_follows_feathers_for_data():
    assert BadRequest().message == "Error"
    assert BadRequest("x", [1, 2]).data == [1, 2]
    overridden = BadRequest("x", {"message": "y"})
    assert overridden.message == "y"
    assert overridden.data == {}
    source = {"errors": {"a": 1}, "b": 2}
    BadRequest("x", source)
    assert source == {"errors": {"a": 1}, "b": 2}, "the caller's dict is not mutated"


def test_from_json_by_name_then_code_then_base():
    by_name = from_json({"name": "NotFound", "message": "gone", "code": 404}, 404)
    assert type(by_name) is NotFound
    assert by_name.message == "gone"

    by_code = from_json({"name": "Weird", "message": "odd", "code": 409, "className": "weird"})
    assert type(by_code) is errors.Conflict
    assert (by_code.name, by_code.code, by_code.class_name) == ("Weird", 409, "weird")

    by_status = from_json({"message": "teapot"}, 418)
    assert type(by_status) is FeathersError
    assert by_status.code == 418
    assert from_json({"message": "x"}, 502).__class__ is errors.BadGateway


def test_from_json_keeps_everything_the_server_sent():
    sent = {
        "name": "BadRequest",
        "message": "Invalid",
        "code": 400,
        "className": "bad-request",
        "data": {"message": "inner", "errors": "kept in data"},
        "errors": {"text": ["required"]},
    }
    error = from_json(sent, 400, response="resp")
    assert error.to_json() == sent
    assert error.response == "resp"


def test_from_json_of_a_non_object_body_uses_the_status():
    error = from_json("Bad Gateway", 502)
    assert type(error) is errors.BadGateway
    assert error.message == "Bad Gateway"


def test_convert_passes_exceptions_through():
    error = NotFound("x")
    assert errors.convert(error) is error
    assert errors.convert(None) is None
    assert type(errors.convert({"name": "Forbidden", "message": "no"})) is errors.Forbidden


def test_errors_pickle_round_trip():
    error = BadRequest("bad", {"field": "x"}, errors={"x": ["bad"]})
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is BadRequest
    assert clone.to_json() == error.to_json()

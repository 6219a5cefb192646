"""
Bad input never yields a 5xx and never leaves data written: every request of the table gets
a Feathers 4xx and the database is exactly as it was.
"""

from __future__ import annotations

import pytest
from rest_framework.exceptions import ValidationError
from rest_framework.fields import FloatField

from tests.server.http import M, body, send
from tests.testapp.models import Person, PersonCustomId, Sample

pytestmark = pytest.mark.django_db

OBJECT = object()  # the id of the fixture's record


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {
            "people": {"class": M + "PersonService", "multi": True},
            "single": M + "PersonService",
            "custom": {"class": M + "PersonCustomIdService", "multi": True},
            "samples": {
                "class": M + "SampleService",
                "multi": True,
                "paginate": {"default": 5, "max": 10},
            },
        }
    )


@pytest.fixture
def records():
    person = Person.objects.create(name="Doug", age=32)
    custom = PersonCustomId.objects.create(customid="doug", name="Doug", age=32)
    sample = Sample.objects.create(char="alpha", integer=1, owner=person)
    return {"people": person.pk, "custom": custom.customid, "samples": sample.pk, "single": 0}


def snapshot():
    return (
        list(Person.objects.order_by("pk").values()),
        list(PersonCustomId.objects.order_by("pk").values()),
        list(Sample.objects.order_by("pk").values()),
    )


def raw(text):
    return {"raw": text.encode() if isinstance(text, str) else text}


HUGE = "9" * 30
DEEP_QUERY = "a" + "[a]" * 50 + "=1"


def _float_field_rejects_infinity() -> bool:
    """Whether DRF's FloatField refuses non-finite numbers (DRF 3.18.1 and later)."""
    try:
        FloatField().run_validation("inf")
    except ValidationError:
        return True
    return False


FLOAT_FIELD_REJECTS_INFINITY = _float_field_rejects_infinity()

# (verb, path, body or raw, expected status). {id} is the fixture record's id.

CASES = [
    # Bodies that are not JSON objects (or arrays for multi create).
    ("POST", "/people", raw("not json"), 400),
    ("POST", "/people", raw('{"name": "x"'), 400),
    ("POST", "/people", raw('"name"'), 400),
    ("POST", "/people", raw("12"), 400),
    ("POST", "/people", raw("null"), 400),
    ("POST", "/people", raw('{"name": "x", "age": NaN}'), 400),
    ("POST", "/people", raw("[" * 5000 + "]" * 5000), 400),
    ("POST", "/people", raw('{"a":' * 40 + "1" + "}" * 40), 400),
    ("PUT", "/people/{id}", raw("[]"), 400),
    ("PATCH", "/people/{id}", raw("true"), 400),
    ("POST", "/people", {"raw": b'{"name": "\xc3\x28"}'}, 400),
    # Lists where objects are expected, and the reverse.
    ("PATCH", "/people/{id}", [{"name": "x"}], 400),
    ("PUT", "/people/{id}", [{"name": "x"}], 400),
    ("PATCH", "/people", [{"name": "x"}], 400),
    ("POST", "/people", [1, "a", None], 400),
    ("POST", "/people", [{"name": "ok"}, ["name", "x"]], 400),
    ("POST", "/single", [{"name": "x"}], 405),
    ("POST", "/people", {"name": ["x"]}, 400),
    ("POST", "/people", {"name": {"first": "x"}}, 400),
    ("POST", "/people", {"name": "x", "age": [1]}, 400),
    ("POST", "/people", {"name": "x", "age": {"$gt": 1}}, 400),
    # Wrong types and out-of-range values.
    ("POST", "/people", {"name": None}, 400),
    ("POST", "/people", {"name": "x", "age": "old"}, 400),
    ("POST", "/people", {"name": "x", "age": 1.5}, 400),
    ("POST", "/people", {"name": "x", "age": 10**30}, 400),
    ("POST", "/people", {"name": "x" * 101}, 400),
    ("POST", "/people", {"name": "a\x00b"}, 400),
    ("POST", "/people", {"name": "x", "created": "maybe"}, 400),
    ("POST", "/samples", {"amount": "abc"}, 400),
    ("POST", "/samples", {"amount": "1e400"}, 400),
    ("POST", "/samples", {"amount": 10**12}, 400),
    pytest.param(
        "POST",
        "/samples",
        {"number": "inf"},
        400,
        marks=pytest.mark.skipif(
            not FLOAT_FIELD_REJECTS_INFINITY,
            reason="DRF's FloatField accepts 'inf' and 'nan' before DRF 3.18.1",
        ),
    ),
    ("POST", "/samples", {"day": "2024-13-45"}, 400),
    ("POST", "/samples", {"moment": "yesterday"}, 400),
    ("POST", "/samples", {"clock": "25:00"}, 400),
    ("POST", "/samples", {"uid": "not-a-uuid"}, 400),
    ("POST", "/samples", {"email": "not an email"}, 400),
    ("POST", "/samples", {"owner": 999999}, 400),
    ("POST", "/samples", {"owner": "x"}, 400),
    ("POST", "/samples", {"small": -1}, 400),
    ("POST", "/samples", {"big": 2**64}, 400),
    ("PATCH", "/samples/{id}", {"integer": "1e3"}, 400),
    ("PUT", "/custom/{id}", {"name": None}, 400),
    # Ids that are not valid primary keys, or match nothing.
    ("GET", "/people/abc", None, 404),
    ("GET", "/people/1.5", None, 404),
    ("GET", "/people/-0", None, 404),
    ("GET", f"/people/{HUGE}", None, 404),
    ("GET", "/people/%00", None, 404),
    ("GET", "/people/1e3", None, 404),
    ("GET", "/people/%20", None, 404),
    ("PATCH", f"/people/{HUGE}", {"name": "x"}, 404),
    ("PUT", "/people/abc", {"name": "x"}, 404),
    ("DELETE", f"/samples/{HUGE}", None, 404),
    ("GET", "/custom/%00", None, 404),
    ("GET", "/custom/" + "x" * 5000, None, 404),
    ("DELETE", "/custom/%C3%A9", None, 404),
    # Query strings: too big, too deep, malformed, unknown fields and operators.
    ("GET", "/people?" + "&".join(f"k{i}=1" for i in range(3000)), None, 400),
    ("GET", "/people?" + DEEP_QUERY, None, 400),
    ("GET", "/people?" + "&".join("name[$in][]=a" for _ in range(2000)), None, 400),
    ("GET", "/people?name[$in][99999]=a", None, 400),
    ("GET", "/people?name=" + "x" * 200_000, None, 200),
    ("GET", "/people?nope=1", None, 400),
    ("GET", "/people?name[$regex]=.*", None, 400),
    ("GET", "/people?name[nope]=x", None, 400),
    ("GET", "/people?$where=1", None, 400),
    ("GET", "/people?age=%ff%fe", None, 400),
    ("GET", "/people?name=%zz", None, 200),
    ("GET", "/people?age=%00", None, 400),
    ("GET", "/people?name=a%00b", None, 400),
    ("GET", f"/people?age={HUGE}", None, 400),
    ("GET", f"/people?age[$gt]={HUGE}", None, 400),
    ("GET", f"/people?$limit={HUGE}", None, 200),
    ("GET", f"/people?$skip={HUGE}", None, 200),
    ("GET", "/samples?$skip=" + HUGE + "&$limit=" + HUGE, None, 200),
    ("GET", "/people?$sort=name", None, 400),
    ("GET", "/people?$sort[name][a]=1", None, 400),
    ("GET", "/people?$sort[name]=up", None, 400),
    ("GET", "/people?$select[a][b]=1", None, 400),
    ("GET", "/people?$or=1", None, 400),
    ("GET", "/people?$or[0]=x", None, 400),
    ("GET", "/people?$or[a][name]=x", None, 400),
    ("GET", "/people?$and[0][$and][0][name]=x", None, 400),
    ("GET", "/people?age[$in][a]=1", None, 400),
    ("GET", "/people?name[$in][0][x]=1", None, 400),
    ("GET", "/people?age[$gt][]=1", None, 400),
    ("GET", "/people?age[$gt]=", None, 400),
    ("GET", "/samples?day=2024-02-30", None, 400),
    ("GET", "/samples?moment=2024-05-01T25:00", None, 400),
    ("GET", "/samples?moment=9999-12-31T23:59:59-23:59", None, 400),
    ("GET", "/samples?moment[$gt]=0001-01-01T00:00:00%2B23:59", None, 400),
    ("GET", "/samples?uid=zzz", None, 400),
    ("GET", "/samples?amount=NaN", None, 400),
    ("GET", "/samples?number=Infinity", None, 400),
    ("GET", "/samples?flag=maybe", None, 400),
    ("GET", "/samples?amount=1e400", None, 400),
    ("GET", f"/samples?big={HUGE}", None, 400),
    ("GET", f"/samples?owner={HUGE}", None, 400),
    ("GET", "/samples?char=" + "x" * 100_000, None, 200),
    ("GET", "/samples?owner=abc", None, 400),
    ("GET", "/samples?integer[$like]=1%25", None, 400),
    ("GET", "/samples?char[$like]=abc%5C", None, 400),
    # Queries of writes are checked before anything is written.
    ("PATCH", "/people?nope=1", {"name": "x"}, 400),
    ("DELETE", "/people?age=old", None, 400),
    ("DELETE", "/people/{id}?nope=1", None, 400),
    ("PUT", "/people/{id}?name=Other", {"name": "x"}, 404),
    ("PATCH", "/people?name=Doug", {"age": "old"}, 400),
    # Headers and verbs.
    ("POST", "/people", {"raw": b'{"name":"x"}', "content_type": "text/plain"}, 400),
    (
        "POST",
        "/people",
        {"raw": b"name=x", "content_type": "application/x-www-form-urlencoded"},
        400,
    ),
    ("PUT", "/people", {"name": "x"}, 400),
    ("OPTIONS", "/people", None, 405),
    ("POST", "/people", {"name": "x", "header": ("X-Service-Method", "remove")}, 405),
]


def _request(api, verb, path, payload):
    headers = {}
    if isinstance(payload, dict) and "header" in payload:
        payload = dict(payload)
        name, value = payload.pop("header")
        headers[f"HTTP_{name.upper().replace('-', '_')}"] = value
    if payload is None:
        return send(api, verb, path, **headers)
    if isinstance(payload, dict) and "raw" in payload:
        content_type = payload.get("content_type", "application/json")
        return send(api, verb, path, raw=payload["raw"], content_type=content_type, **headers)
    return send(api, verb, path, payload, **headers)


@pytest.mark.parametrize(("verb", "path", "payload", "status"), CASES)
def test_bad_input_is_a_clean_4xx_and_writes_nothing(api, records, verb, path, payload, status):
    service = path.split("/")[1].split("?")[0]
    path = path.replace("{id}", str(records[service]))
    before = snapshot()
    response = _request(api, verb, path, payload)
    assert response.status_code == status, response.content[:500]
    if status >= 400:
        answer = body(response)
        assert list(answer)[:4] == ["name", "message", "code", "className"]
        assert answer["code"] == status
        assert "Traceback" not in answer["message"]
    assert snapshot() == before

"""
Property-based fuzzing of services through real requests (DRF's APIClient).

Whatever the query string, body, id in the path or headers, the answer is never a 5xx; every
error is exactly Feathers' error JSON (`name`, `message`, `code`, `className`, then `data` and
`errors` when present, `code` the HTTP status, `name` and `className` those of the class for
that status); and a write that fails leaves every table as it was.

Run it on PostgreSQL too (`DATABASE_URL=... TEST_DATABASE_NAME=test_fuzz`): it is stricter
than SQLite about NUL bytes, integer ranges and comparisons between types. `FUZZ_EXAMPLES=N`
searches longer than the default run does.
"""

from __future__ import annotations

import json
import os
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from django_services import errors
from django_services.server.authentication import create_access_token
from tests.server.http import M, S, send
from tests.testapp.models import Message, Note, Person, PersonCustomId, Sample, Todo, User

pytestmark = pytest.mark.django_db

SECRET = "a-secret-for-the-fuzzing-tests-that-is-long-enough-for-every-hmac-algorithm-0123"
EMAIL = "fuzz@example.com"
PASSWORD = "fuzz-password"

# FUZZ_EXAMPLES=5000 searches longer, with new random examples each run; by default the
# same examples run every time, within a few seconds per test.
EXPLORE = int(os.environ.get("FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=EXPLORE or 150,
    deadline=None,
    derandomize=not EXPLORE,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

SERVICES = {
    "samples": {"class": M + "SampleService", "multi": True, "paginate": {"default": 5, "max": 8}},
    "people": {"class": M + "PersonService", "multi": True},
    "custom": {"class": M + "PersonCustomIdService", "multi": ["patch"]},
    "todos": {"class": M + "TodoService", "multi": True},
    "messages": M + "MessageService",
    "users/:userId/notes": M + "NoteService",
    "users": "django_services.server.authentication.UserService",
    "echo": S + "EchoService",
    "protected": S + "DefaultAuthenticationService",
    "public": S + "PublicDefaultService",
}
PATHS = [
    "/samples", "/people", "/custom", "/todos", "/messages", "/users/1/notes", "/users",
    "/echo", "/protected", "/public", "/authentication",
]  # fmt: skip
VERBS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"]
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture(autouse=True)
def wire(serve):
    serve(SERVICES, AUTHENTICATION={"SECRET": SECRET})


@pytest.fixture
def records():
    """A few rows in every table, among them a todo that refuses writes half-way."""
    user = User.objects.create_user(email=EMAIL, password=PASSWORD)
    doug = Person.objects.create(name="Doug", age=32)
    Person.objects.create(name="Alice", age=None)
    Sample.objects.create(char="alpha", integer=1, big=2**40, small=3, number=1.5, owner=doug)
    Sample.objects.create(char="beta", text="with \\ and %", amount="12.50", flag=True)
    PersonCustomId.objects.create(customid="doug", name="Doug", age=32)
    for text in ["first", "frozen", "last"]:
        Todo.objects.create(text=text)
    Note.objects.create(text="note", user_id=1)
    Message.objects.create(text="hello", user_id=1)
    return user


def snapshot():
    """Every row of every table the services write."""
    models = [Sample, Person, PersonCustomId, Todo, Note, Message, User]
    return [list(model.objects.order_by("pk").values()) for model in models]


def check_answer(response, verb, before=None):
    """Never a 5xx; errors in Feathers' exact shape; a failed write changes nothing."""
    status = response.status_code
    assert status < 500, response.content[:1000]
    if status < 400:
        if status != 204 and verb != "HEAD" and response.content:
            json.loads(response.content)
        return
    assert response["Content-Type"] == "application/json; charset=utf-8", response.content
    if verb == "HEAD":  # the body is dropped, as servers drop it
        return
    answer = json.loads(response.content)
    keys = list(answer)
    assert keys[:4] == ["name", "message", "code", "className"], answer
    assert keys[4:] in ([], ["data"], ["errors"], ["data", "errors"]), answer
    cls = errors.errors[status]
    assert answer["code"] == status
    assert (answer["name"], answer["className"]) == (cls.__name__, cls.class_name), answer
    assert isinstance(answer["message"], str) and answer["message"]
    assert "Traceback" not in answer["message"]
    if before is not None:
        assert snapshot() == before, f"{verb} failed with {status} but wrote: {answer}"


def request(api, verb, path, *, query="", body=None, content_type="application/json", **headers):
    """Send one request and check its answer (and, for writes, the database)."""
    before = snapshot() if verb in WRITES else None
    url = f"{path}?{query}" if query else path
    if body is None:
        response = send(api, verb, url, **headers)
    else:
        response = send(api, verb, url, raw=body, content_type=content_type, **headers)
    check_answer(response, verb, before)
    return response


# Query strings ---------------------------------------------------------------------------

FIELDS = [
    "id", "char", "text", "email", "integer", "big", "small", "number", "amount", "flag",
    "maybe", "day", "moment", "clock", "uid", "secret", "owner", "ownerName", "shout", "name",
    "age", "created", "customid", "userId", "user_id", "complete", "read", "password", "",
]  # fmt: skip
OPERATORS = [
    "$in", "$nin", "$lt", "$lte", "$gt", "$gte", "$ne", "$like", "$notlike", "$ilike",
    "$regex", "$eq", "$exists", "$or", "$and", "$select", "$sort", "$limit", "$skip",
    "$paginate", "$populate", "$where",
]  # fmt: skip
FILTERS = ["$limit", "$skip", "$sort", "$select", "$or", "$and", "$paginate", "$x", "$"]
INDEXES = ["", "0", "1", "2", "999", "1000", "01", "-1", "99999999999999999999", "9" * 5000]
VALUES = [
    "", "0", "1", "-1", "1.5", "-0", "+3", " 7", "1e3", "1e308", "1e309", "-1e308", "1e-400",
    "NaN", "Infinity", "-Infinity", "0x10", "2147483647", "2147483648", "-2147483649",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
    "9" * 30, "9" * 5000, "true", "false", "TRUE", "null", "undefined", "2024-05-01", "2024-02-30",
    "0001-01-01", "9999-12-31", "0000-01-01", "2024-05-01T10:00:00Z",
    "2024-05-01T10:00:00.123+05:30",
    "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "0001-01-01T00:00:00-23:59",
    "10:00", "24:00", "23:59:59.999999", "10:00+02:00", "12345678-1234-5678-1234-567812345678",
    "{12345678-1234-5678-1234-567812345678}", "urn:uuid:12345678-1234-5678-1234-567812345678",
    "\x00", "a\x00b", "\x01\x1f\x7f", "%", "%00", "%zz", "%FF", "%C3%28", "%ED%A0%80",
    "%E2%9C%93", "\u2028", "\u00e9", "\U0001f600", "a%25", "\\", "abc\\", "_%", "'", '"',
    "';--", "x" * 300, "alpha", "Doug", "fuzz@example.com",
]  # fmt: skip


def keys() -> st.SearchStrategy[str]:
    name = st.sampled_from(FIELDS + FILTERS) | st.text(max_size=6)
    group = (
        st.sampled_from(OPERATORS + FIELDS + INDEXES).map(lambda inner: f"[{inner}]")
        | st.text(max_size=4).map(lambda inner: f"[{inner}]")
        | st.sampled_from(["[", "]", "[[", "]]", "x"])
    )
    return st.builds(lambda head, tail: head + "".join(tail), name, st.lists(group, max_size=7))


def values() -> st.SearchStrategy[str]:
    return (
        st.sampled_from(VALUES)
        | st.text(max_size=12)
        | st.integers().map(str)
        | st.floats().map(repr)
    )


def encoded(text: str, how: str) -> str:
    if how == "quote":
        return quote(text, safe="")
    if how == "brackets":
        return quote(text, safe="[]$")
    return text


def conditions() -> st.SearchStrategy[str]:
    """`field`, `field[$op]`, `field[$in][i]`, `$or[i][field]...`: keys a service reads."""
    operator = st.sampled_from(["", "[]", "[$in][]", "[$nin][0]", "[$in][a]"]) | st.sampled_from(
        OPERATORS
    ).map(lambda name: f"[{name}]")
    field = st.sampled_from(FIELDS)
    plain = st.builds(str.__add__, field, operator)
    grouped = st.builds(
        lambda group, index, key: f"{group}[{index}][{key}]",
        st.sampled_from(["$or", "$and"]),
        st.sampled_from(INDEXES[:6]),
        plain.map(lambda key: key.replace("[", "][", 1) if "[" in key else key),
    )
    filters = st.sampled_from(
        ["$limit", "$skip", "$select[]", "$select", "$sort[char]"]
    ) | st.builds(lambda name: f"$sort[{name}]", field)
    return plain | grouped | filters


def query_strings() -> st.SearchStrategy[str]:
    pair = st.builds(
        lambda key, value, how, bare: (
            encoded(key, how) + ("" if bare else "=" + encoded(value, how))
        ),
        conditions() | keys(),
        values(),
        st.sampled_from(["quote", "brackets", "raw"]),
        st.sampled_from([False] * 9 + [True]),
    )
    structured = st.lists(pair, max_size=10).map("&".join)
    chaos = st.text(alphabet="ab$[]]=&%5BDd0123+_.-\x00\u00e9 ", max_size=40)
    return structured | chaos


@FUZZ
@given(
    verb=st.sampled_from(["GET", "HEAD", "DELETE", "PATCH"]),
    path=st.sampled_from(PATHS + [f"{path}/1" for path in PATHS[:5]] + ["/custom/doug"]),
    query=query_strings(),
)
def test_random_query_strings(api, records, verb, path, query):
    body = b'{"char": "patched", "name": "patched", "text": "patched"}' if verb == "PATCH" else None
    request(api, verb, path, query=query, body=body)


# Sample's fields by type, with values at and beyond what each type (and database) holds.
JUNK = ["", "\x00", "a\x00b", "%00", "%", "%zz", "%ED%A0%80", "x" * 300, "null", "[object Object]"]
TYPED = {
    ("id", "integer", "big", "small", "owner"): [
        "0", "-1", "1", "1.0", "1e3", "0x1", "\u0661", "2147483647", "2147483648", "-2147483649",
        "32767", "32768", "65535", "65536", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "9" * 30, "9" * 5000,
    ],
    ("number",): [
        "0", "-0", "1.5", "1e308", "1.8e308", "-1e308", "1e-400", "5e-324", "NaN", "Infinity",
        ".5", "5.", "1e", "+1", "1_0", "9" * 400,
    ],
    ("amount",): [
        "12.50", "0.001", "99999999.99", "100000000", "1e30", "1e-30", "-0", "1E+2", "NaN",
        "sNaN", "Infinity", "1e999999999", "9" * 400, "0." + "0" * 400 + "1",
    ],
    ("flag", "maybe"): ["true", "false", "1", "0", "TRUE", "yes", "2", "-1"],
    ("day",): [
        "2024-05-01", "2024-02-29", "2023-02-29", "0001-01-01", "9999-12-31", "0000-01-01",
        "10000-01-01", "2024-05-01T23:30:00-05:00", "9999-12-31T23:59:59-23:59", "2024-5-1",
    ],
    ("moment",): [
        "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123456+05:30", "2024-05-01",
        "2024-05-01 10:00",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59-23:59",
        "0001-01-01T00:00:00+23:59", "0001-01-01T00:00:00-23:59", "9999-12-31T23:59:59+23:59",
        "2024-05-01T10:00:00+24:00", "2024-05-01T10:00:00Z[UTC]", "2024-W18-3",
    ],
    ("clock",): ["10:00", "23:59:59.999999", "24:00", "10:00+02:00", "10:00Z", "25:00", "1:2:3"],
    ("uid",): [
        "12345678-1234-5678-1234-567812345678", "{12345678-1234-5678-1234-567812345678}",
        "urn:uuid:12345678-1234-5678-1234-567812345678", "12345678123456781234567812345678", "0",
    ],
    ("char", "text", "email", "ownerName", "secret", "shout"): [
        "alpha", "ALPHA", "%", "_", "\\", "a\\", "a%25", "\u00e9", "\U0001f600", "'", "';--",
    ],
}  # fmt: skip


OPERATOR_KEYS = [
    "", "", "[$ne]", "[$in][]", "[$nin][]", "[$in][0]", "[$gt]", "[$lte]", "[$like]", "[$ilike]",
    "[$notlike]", "[$in][99999999999999999999]", "[$eq]",
]  # fmt: skip


def in_group(group: str, key: str) -> str:
    """`moment[$gt]` as the first entry of `$or`: `$or[0][moment][$gt]`."""
    name, bracket, rest = key.partition("[")
    return f"{group}[0][{name}]{bracket}{rest}"


def typed_conditions() -> st.SearchStrategy[str]:
    """A field of /samples, an operator, and a value made for the field's type (or junk)."""

    def condition(names_and_values):
        names, pool = names_and_values
        key = st.builds(str.__add__, st.sampled_from(names), st.sampled_from(OPERATOR_KEYS))
        key = key | st.builds(in_group, st.sampled_from(["$or", "$and"]), key)
        value = st.sampled_from(pool) | st.sampled_from(JUNK)
        return st.builds(lambda k, v: f"{quote(k, safe='[]$')}={quote(v, safe='')}", key, value)

    return st.sampled_from(list(TYPED.items())).flatmap(condition)


@FUZZ
@given(
    verb=st.sampled_from(["GET", "GET", "HEAD", "DELETE", "PATCH"]),
    path=st.sampled_from(["/samples", "/samples/1", "/samples/2"]),
    parts=st.lists(typed_conditions(), min_size=1, max_size=4),
    extra=st.sampled_from(["", "$sort[moment]=-1", "$select[]=moment", "$limit=1&$skip=1"]),
)
def test_random_queries_by_field_type(api, records, verb, path, parts, extra):
    body = b'{"char": "patched"}' if verb == "PATCH" else None
    request(api, verb, path, query="&".join([*parts, extra]), body=body)


# Bodies ----------------------------------------------------------------------------------

BODY_KEYS = [*FIELDS, "strategy", "accessToken", "$in", "__proto__", "constructor"]
NUMBERS = [
    "NaN", "Infinity", "-Infinity", "1e308", "1e309", "-1e400", "-0.0", "-0", "0.1", "1E-400",
    "5e-324", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
    "18446744073709551616", "9" * 40, "9" * 5000, "1.5", "1e3",
]  # fmt: skip
JSON_STRINGS = [
    '""', '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"',
    '"2024-05-01"', '"2024-05-01T10:00:00Z"', '"9999-12-31T23:59:59-23:59"', '"24:00"',
    '"10:00"', '"12345678-1234-5678-1234-567812345678"', '"not-a-uuid"', '"1e400"', '"NaN"',
    '"true"', '"local"', '"jwt"', '"session"', f'"{EMAIL}"', f'"{PASSWORD}"', '"x@y"',
]  # fmt: skip


def json_leaves() -> st.SearchStrategy[str]:
    return (
        st.sampled_from(["null", "true", "false", *NUMBERS, *JSON_STRINGS])
        | st.integers().map(str)
        | st.floats(allow_nan=False, allow_infinity=False).map(repr)
        | st.text(max_size=20).map(json.dumps)
        | st.integers(min_value=1, max_value=3).map(lambda n: json.dumps("x" * 10**n * 3))
    )


def json_texts() -> st.SearchStrategy[str]:
    """JSON text, with numbers and strings written as no Python value would print them."""
    key = st.sampled_from(BODY_KEYS).map(json.dumps) | st.text(max_size=5).map(json.dumps)

    def containers(children):
        arrays = st.lists(children, max_size=4).map(lambda items: f"[{','.join(items)}]")
        objects = st.lists(st.tuples(key, children), max_size=6).map(
            lambda items: "{" + ",".join(f"{name}:{value}" for name, value in items) + "}"
        )
        return arrays | objects

    return st.recursive(json_leaves(), containers, max_leaves=16)


def record_bodies() -> st.SearchStrategy[str]:
    """An object of known fields, each with a value of any type (a wrong one, mostly)."""
    return st.dictionaries(st.sampled_from(BODY_KEYS), json_texts(), max_size=8).map(
        lambda fields: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in fields.items()) + "}"
    )


def bodies() -> st.SearchStrategy[bytes]:
    texts = (
        record_bodies()
        | json_texts()
        | st.lists(record_bodies(), max_size=3).map(lambda items: f"[{','.join(items)}]")
    )
    garbage = st.binary(max_size=30) | st.sampled_from(
        [b"", b"[" * 100 + b"]" * 100, b'{"a":' * 40 + b"1" + b"}" * 40, b"\xff\xfe{}", b"{}\x00"]
    )
    return texts.map(str.encode) | garbage


@FUZZ
@given(
    verb=st.sampled_from(["POST", "PUT", "PATCH"]),
    path=st.sampled_from(
        [*PATHS, "/samples/1", "/people/1", "/custom/doug", "/todos/1", "/users/1", "/echo/1"]
    ),
    body=bodies(),
)
def test_random_bodies(api, records, verb, path, body):
    request(api, verb, path, body=body)


@FUZZ
@given(method=st.sampled_from(["shout", "whisper"]), id=st.sampled_from(["", "/1"]), body=bodies())
def test_random_bodies_of_custom_methods(api, records, method, id, body):
    request(api, "POST", f"/echo{id}", body=body, HTTP_X_SERVICE_METHOD=method)


@FUZZ
@given(verb=st.sampled_from(["PATCH", "DELETE", "POST"]), body=bodies(), query=query_strings())
def test_random_multi_writes_are_all_or_nothing(api, records, verb, body, query):
    # Every todo matches an empty query; "frozen" refuses writes after "first" was written.
    for path in ["/todos", "/samples", "/people"]:
        request(api, verb, path, query=query, body=None if verb == "DELETE" else body)


@FUZZ
@given(
    data=st.sampled_from(
        [
            {"strategy": "local", "email": EMAIL, "password": PASSWORD},
            {"strategy": "local", "email": EMAIL},
            {"strategy": "jwt"},
        ]
    ),
    overrides=st.dictionaries(
        st.sampled_from(["strategy", "email", "password", "accessToken"]), json_texts(), max_size=3
    ),
)
def test_random_authentication_bodies(api, records, data, overrides):
    fields = {key: json.dumps(value) for key, value in data.items()} | overrides
    body = "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in fields.items()) + "}"
    response = request(api, "POST", "/authentication", body=body.encode())
    assert response.status_code in (201, 400, 401), response.content


# Ids in the path -------------------------------------------------------------------------

ID_TEXTS = [
    "1", "01", "-1", "1.5", "1e3", "0x1", " 1", "1 ", "\u0661", "\u00b2", "9" * 30, "9" * 5000,
    "x" * 5000, "doug", "DOUG", "%", "%zz", "%00", "%2F", "%2f..%2f", "%C3%28", "%ED%A0%80",
    "%E2%9C%93", "..", ".", "~", "\u00e9", "\U0001f600", "a b", "%20", "+", ";", ",", "@",
]  # fmt: skip


def ids() -> st.SearchStrategy[str]:
    return (
        st.sampled_from(ID_TEXTS)
        | st.text(min_size=1, max_size=20).map(lambda text: quote(text, safe=""))
        | st.binary(min_size=1, max_size=10).map(lambda raw: quote(raw, safe=""))
        | st.text(
            alphabet=st.characters(blacklist_characters="/?#", blacklist_categories=["Cs"]),
            min_size=1,
            max_size=10,
        )
    )


@FUZZ
@given(
    verb=st.sampled_from(VERBS),
    service=st.sampled_from(["samples", "people", "custom", "todos", "users", "echo", "users"]),
    id=ids(),
    extra=st.sampled_from(["", "/", "/notes", "/x/y", "//"]),
)
def test_random_ids_in_the_path(api, records, verb, service, id, extra):
    body = b'{"name": "x", "text": "x"}' if verb in ("POST", "PUT", "PATCH") else None
    request(api, verb, f"/{service}/{id}{extra}", body=body)


@FUZZ
@given(user_id=ids(), id=st.none() | ids(), verb=st.sampled_from(["GET", "POST", "DELETE"]))
def test_random_route_params(api, records, user_id, id, verb):
    path = f"/users/{user_id}/notes" + ("" if id is None else f"/{id}")
    request(api, verb, path, body=b'{"text": "x"}' if verb == "POST" else None)


# Headers ---------------------------------------------------------------------------------

LATIN_1 = st.characters(max_codepoint=255, blacklist_characters="\r\n")
SERVICE_METHODS = [
    "find", "get", "create", "update", "patch", "remove", "shout", "whisper", "mark_all_read",
    "", " ", "dispatch", "initial", "handle_call", "get_queryset", "perform_create",
    "__init__", "__class__", "as_view", "options", "http_method_not_allowed", "setup",
    "check_permissions", "represent", "get_instance", "SHOUT", "shout ", "shout\x00",
]  # fmt: skip
CONTENT_TYPES = [
    "application/json", "application/json; charset=utf-8", "application/json; charset=latin-1",
    "application/json; charset=utf-16", "application/json; charset=bogus",
    'application/json; charset="utf-8"', "APPLICATION/JSON", "application/merge-patch+json",
    "application/vnd.api+json", "text/plain", "text/json", "", "*/*", "application/*",
    "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=x",
    "application/json; boundary=;;;", "\u00e9/\u00e9",
]  # fmt: skip
ACCEPTS = [
    "*/*",
    "application/json",
    "text/html",
    "application/json; indent=4",
    "",
    "\x00",
    "a/b/c",
]


def tokens(user_id: int) -> list[str]:
    valid = create_access_token(str(user_id))
    header, payload, signature = valid.split(".")
    return [
        valid,
        f"{header}.{payload}.",
        f"{header}.{payload}.{signature[::-1]}",
        "eyJhbGciOiJub25lIiwidHlwIjoiYWNjZXNzIn0." + payload + ".",
        create_access_token("999999"),
        create_access_token("not-a-number"),
        create_access_token("9" * 30),
        create_access_token("\u00e9"),
    ]


@pytest.fixture
def session_key(records):
    """The key of a logged-in Django session of the fixture's user."""
    from django.test import Client

    client = Client()
    client.force_login(records)
    return client.cookies["sessionid"].value


def cookies(session: str) -> st.SearchStrategy[str]:
    return st.sampled_from(
        [
            f"sessionid={session}",
            f"sessionid={session}; csrftoken=abcdefghijklmnopqrstuvwxyz012345",
            "sessionid=junk",
            "sessionid=; csrftoken=",
            'sessionid="\\x00"',
            "=; ;;",
        ]
    ) | st.text(alphabet=LATIN_1, max_size=30)


def authorizations(token_list: list[str]) -> st.SearchStrategy[str]:
    scheme = st.sampled_from(["Bearer", "bearer", "JWT", "Basic", "Token", ""])
    token = st.sampled_from(token_list) | st.text(alphabet=LATIN_1, max_size=40)
    return (
        st.builds(lambda s, t: f"{s} {t}", scheme, token)
        | token
        | st.sampled_from(["Bearer", "Bearer ", "Bearer a b", "Basic Og==", "Basic !!!", " "])
    )


@FUZZ
@given(
    verb=st.sampled_from(VERBS),
    path=st.sampled_from([*PATHS, "/echo/1", "/messages/1", "/samples/1"]),
    method=st.none() | st.sampled_from(SERVICE_METHODS) | st.text(alphabet=LATIN_1, max_size=12),
    content_type=st.sampled_from(CONTENT_TYPES) | st.text(alphabet=LATIN_1, max_size=20),
    accept=st.none() | st.sampled_from(ACCEPTS),
    authorization=st.data(),
    body=st.sampled_from([b'{"userId": 1, "text": "x"}', b"[]", b"{}", b"", b"\xff"]),
)
def test_random_headers(
    api, records, session_key, verb, path, method, content_type, accept, authorization, body
):
    headers = {}
    cookie = authorization.draw(st.none() | cookies(session_key))
    if cookie is not None:
        headers["HTTP_COOKIE"] = cookie
    if method is not None:
        headers["HTTP_X_SERVICE_METHOD"] = method
    if accept is not None:
        headers["HTTP_ACCEPT"] = accept
    value = authorization.draw(st.none() | authorizations(tokens(records.pk)))
    if value is not None:
        headers["HTTP_AUTHORIZATION"] = value
    request(api, verb, path, body=body, content_type=content_type, **headers)

"""Service calls over socket.io answer exactly what the same calls answer over REST."""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.django_db(transaction=True)


async def test_every_standard_method_round_trips(connect):
    client = await connect()
    ada = await client.call("create", "people", {"name": "Ada", "age": 36}, {})
    assert ada == {"id": ada["id"], "name": "Ada", "age": 36, "created": False}
    more = await client.call("create", "people", [{"name": "Bob", "age": 20}, {"name": "Cy"}], {})
    assert [person["name"] for person in more] == ["Bob", "Cy"]

    assert await client.call("get", "people", ada["id"], {}) == ada
    found = await client.call("find", "people", {"age": {"$gte": 20}, "$sort": {"age": -1}})
    assert [person["name"] for person in found] == ["Ada", "Bob"]
    assert await client.call("find", "people", {"$select": ["name"], "name": "Cy"}) == [
        {"id": more[1]["id"], "name": "Cy"}
    ]

    patched = await client.call("patch", "people", ada["id"], {"age": 37}, {})
    assert (patched["name"], patched["age"]) == ("Ada", 37)
    replaced = await client.call("update", "people", ada["id"], {"name": "Ada L."}, {})
    assert (replaced["name"], replaced["age"]) == ("Ada L.", None)
    young = {"age": {"$lt": 30}}
    patched_many = await client.call("patch", "people", None, {"created": True}, young)
    assert [person["name"] for person in patched_many] == ["Bob"]
    assert (await client.call("remove", "people", ada["id"], {}))["name"] == "Ada L."
    assert len(await client.call("remove", "people", None, {})) == 2
    assert await client.call("find", "people", {}) == []


async def test_a_call_answers_what_rest_answers(connect, live_socket_server):
    client = await connect()
    await client.call("create", "people", {"name": "Ada", "age": 36}, {})
    over_socket = await client.call("find", "people", {"name": "Ada"})
    over_rest = requests.get(f"{live_socket_server.url}/people?name=Ada", timeout=10)
    assert over_rest.status_code == 200
    assert over_socket == over_rest.json()


async def test_custom_methods_and_route_services(connect, user):
    client = await connect()
    await client.call("create", "todos", {"text": "a"}, {})
    await client.call("create", "todos", {"text": "b", "complete": True}, {})
    assert await client.call("markAllComplete", "todos", {}, {}) == {"updated": 1}

    # The client fills the route placeholders in; params.route holds them as strings.
    note = await client.call("create", f"users/{user.pk}/notes", {"text": "n"}, {})
    assert note == {"id": note["id"], "text": "n", "userId": user.pk}
    assert await client.call("find", f"users/{user.pk}/notes", {}) == [note]
    assert await client.call("find", f"users/{user.pk + 1}/notes", {}) == []


async def test_ids_and_query_values_keep_their_json_types(connect):
    client = await connect()
    ada = await client.call("create", "people", {"name": "Ada", "age": None}, {})
    await client.call("create", "people", {"name": "Bob", "age": 20}, {})

    assert await client.call("get", "people", ada["id"], {}) == ada
    assert await client.call("get", "people", str(ada["id"]), {}) == ada
    assert await client.call("find", "people", {"name": {"$in": []}}) == []
    assert [p["name"] for p in await client.call("find", "people", {"age": None})] == ["Ada"]
    assert [p["name"] for p in await client.call("find", "people", {"$limit": 1, "$skip": 1})] == [
        "Bob"
    ]
    # Strings are still read as REST reads them.
    assert [p["name"] for p in await client.call("find", "people", {"age": "20"})] == ["Bob"]
    assert [p["name"] for p in await client.call("find", "people", {"$limit": "1"})] == ["Ada"]

    missing = await client.error("get", "people", 424242, {})
    assert missing == {
        "name": "NotFound",
        "message": "No record found for id '424242'",
        "code": 404,
        "className": "not-found",
    }


async def test_a_find_path_with_an_id_segment_resolves_to_the_service(connect):
    client = await connect()
    ada = await client.call("create", "people", {"name": "Ada"}, {})
    assert await client.call("find", f"people/{ada['id']}", {}) == [ada]
    assert await client.call("get", "people/999", ada["id"]) == ada


async def test_missing_arguments_are_undefined(connect):
    client = await connect()
    assert await client.call("find", "people") == []
    ada = await client.call("create", "people", {"name": "Ada"})
    assert await client.call("get", "people", ada["id"]) == ada


@pytest.mark.parametrize(
    ("event", "args", "error"),
    [
        ("find", ["nowhere", {}], ("NotFound", 404, "Service 'nowhere' not found")),
        ("find", [42, {}], ("NotFound", 404, "Invalid service path")),
        ("find", [], ("NotFound", 404, "Invalid service path")),
        (
            "frobnicate",
            ["people", {}, {}],
            ("MethodNotAllowed", 405, "Method 'frobnicate' not allowed on service 'people'"),
        ),
        (
            "markAllComplete",
            ["people", {}, {}],
            ("MethodNotAllowed", 405, "Method 'markAllComplete' not allowed on service 'people'"),
        ),
        (
            "remove",
            ["secrets", 1, {}],
            ("MethodNotAllowed", 405, "Method 'remove' not allowed on service 'secrets'"),
        ),
        ("find", ["people", {}, {}], ("BadRequest", 400, "Too many arguments for 'find' method")),
        ("get", ["people", 1, {}, {}], ("BadRequest", 400, "Too many arguments for 'get' method")),
        (
            "update",
            ["people", None, {"name": "x"}, {}],
            ("BadRequest", 400, "You can not replace multiple instances. Did you mean 'patch'?"),
        ),
        (
            "create",
            ["api/v1/messages", [{"text": "a", "userId": 1}], {}],
            ("MethodNotAllowed", 405, "Can not create multiple entries"),
        ),
        ("find", ["secrets", {}], ("NotAuthenticated", 401, "Not authenticated")),
        (
            "find",
            ["people", "name=Ada"],
            ("BadRequest", 400, "The query (params.query) must be an object"),
        ),
        (
            "get",
            ["people", {"id": 1}, {}],
            ("BadRequest", 400, "The id must be a string or a number"),
        ),
        ("find", ["people", {"nope": 1}], ("BadRequest", 400, None)),
    ],
)
async def test_errors_are_feathers_error_objects(connect, event, args, error):
    client = await connect()
    answer = await client.error(event, *args)
    name, code, message = error
    assert (answer["name"], answer["code"]) == (name, code)
    if message is not None:
        assert answer["message"] == message
    assert "hook" not in answer and "stack" not in answer


async def test_errors_keep_their_data_and_validation_details(connect):
    client = await connect()
    assert await client.error("get", "errors", "409", {}) == {
        "name": "Conflict",
        "message": "boom 409",
        "code": 409,
        "className": "conflict",
        "data": {"reason": "test"},
    }
    invalid = await client.error("create", "people", {"age": "old"}, {})
    assert (invalid["name"], invalid["code"]) == ("BadRequest", 400)
    assert set(invalid["errors"]) == {"name", "age"}


async def test_an_unexpected_exception_is_a_general_error_without_details(connect, caplog):
    client = await connect()
    answer = await client.error("get", "errors", "kaboom", {})
    assert answer == {
        "name": "GeneralError",
        "message": "Internal server error",
        "code": 500,
        "className": "general-error",
    }
    # The server keeps working, and logged the traceback for its operators.
    assert await client.call("find", "people", {}) == []
    assert any("boom kaboom" in str(record.exc_info) for record in caplog.records)


async def test_a_result_of_none_is_a_null_result(connect, settings):
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SERVICES": {"none": "tests.server.echo_services.NoneService"},
    }
    client = await connect()
    assert await client.ack("find", "none", {}) == [None, None]


async def test_calls_in_flight_are_answered_each_with_its_own_ack(connect):
    import asyncio

    client = await connect()
    created = [await client.call("create", "people", {"name": f"p{n}"}, {}) for n in range(20)]
    # Twenty calls in flight at once on one socket: each ack answers its own call.
    answers = await asyncio.gather(
        *(client.call("get", "people", person["id"], {}) for person in reversed(created))
    )
    assert answers == list(reversed(created))


@pytest.fixture
def services_settings(services_settings):
    services = {**services_settings["SERVICES"]}
    services["groups/:groupId/state"] = "tests.server.pipeline_services.CallStateService"
    services_settings["SERVICES"] = services
    return services_settings


async def test_a_socket_call_is_read_from_the_service_s_one_context(connect):
    client = await connect()

    seen = await client.call("get", "groups/7/state", 1, {})

    assert seen["copied"] == []
    assert seen["one_source"] is True
    assert (seen["method"], seen["route"], seen["request"]) == ("get", {"groupId": "7"}, "Request")

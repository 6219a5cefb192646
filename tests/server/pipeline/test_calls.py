"""
The call pipeline: the same steps for REST, internal and socket-style calls.

Outside HTTP, refusals are raised as DRF raises them (a transport answers them as the REST
exception handler does, with `to_feathers_error`).
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, Throttled

from django_services.errors import BadRequest, MethodNotAllowed
from django_services.query.parse import FeathersQuery
from django_services.server import CallContext, Params, get_service, run_call, run_call_async
from tests.server.http import assert_error, body
from tests.testapp.models import Person, User

pytestmark = pytest.mark.django_db

P = "tests.server.pipeline_services."


@pytest.fixture
def staff():
    return User.objects.create_user("staff@example.com", "secret", is_staff=True)


@pytest.fixture
def member():
    return User.objects.create_user("member@example.com", "secret")


def test_internal_calls_skip_authentication_and_permissions(serve):
    serve({"guarded": P + "GuardedService"})

    assert get_service("guarded").create({"a": 1}, Params()) == {"a": 1}


def test_internal_calls_given_a_provider_are_checked_like_external_ones(serve, member, staff):
    serve({"guarded": P + "GuardedService"})
    guarded = get_service("guarded")

    with pytest.raises(NotAuthenticated):
        guarded.find(Params(provider="rest"))
    assert guarded.find(Params(provider="rest", user=member)) == [
        {"user": "member@example.com", "provider": "rest"}
    ]
    with pytest.raises(PermissionDenied):
        guarded.create({"a": 1}, Params(provider="rest", user=member))
    assert guarded.create({"a": 1}, Params(provider="rest", user=staff)) == {"a": 1}


def test_socket_calls_bring_their_stored_authentication(serve, member):
    serve({"guarded": P + "GuardedService"})
    service = get_service("guarded")

    context = CallContext(service, "find", params=Params(provider="socketio", user=member))

    assert run_call(context) == [{"user": "member@example.com", "provider": "socketio"}]
    assert context.request.user == member
    with pytest.raises(NotAuthenticated):
        run_call(CallContext(service, "find", params=Params(provider="socketio")))


def test_socket_calls_get_the_socket_wording_of_405(serve):
    serve({"guarded": P + "GuardedService"})
    service = get_service("guarded")

    with pytest.raises(MethodNotAllowed) as refused:
        run_call(CallContext(service, "remove", id="1", params=Params(provider="socketio")))

    assert refused.value.message == "Method 'remove' not allowed on service 'guarded'"


def test_throttles_count_calls_of_every_transport(api, serve, member):
    serve({"throttled": P + "ThrottledPerUser"})
    service = get_service("throttled")
    api.force_authenticate(member)

    assert api.get("/throttled").status_code == 200
    service.find(Params(provider="socketio", user=member))
    response = api.get("/throttled")

    assert response.status_code == 429
    assert response["Retry-After"]
    with pytest.raises(Throttled):
        service.find(Params(provider="socketio", user=member))
    # Internal calls are not throttled.
    assert service.find(Params()) == []


def test_the_multi_and_update_rules_hold_for_every_call(serve):
    serve({"guarded": P + "GuardedService", "people": P + "HookedPeople"})

    with pytest.raises(MethodNotAllowed, match="Can not create multiple entries"):
        get_service("guarded").create([{"a": 1}], Params())
    with pytest.raises(BadRequest, match="You can not replace multiple instances"):
        get_service("people").update(None, {"name": "x"}, Params())


def test_the_query_is_parsed_once_and_travels_with_the_call(serve):
    serve({"people": {"class": P + "EventfulPeople", "paginate": {"default": 2, "max": 5}}})
    Person.objects.bulk_create(Person(name=name, age=age) for name, age in [("A", 5), ("B", 50)])
    people = get_service("people")
    calls = []
    people.hooks = {"after": {"find": [calls.append]}}

    page = people.find(Params(query={"age": {"$gt": "10"}}))

    assert [person["name"] for person in page["data"]] == ["B"]
    [call] = calls
    assert isinstance(call.query, FeathersQuery)
    assert (call.query.limit, call.method, call.provider) == (2, "find", None)
    assert call.service.call is call
    # The call ran on an instance of its own: the shared one holds none.
    assert people.call is None


def test_methods_called_during_a_call_run_directly(serve):
    serve({"people": P + "OrderedPeople"})
    ada = Person.objects.create(name="Ada", age=36)
    people = get_service("people")
    seen = []

    def nested(context):
        # The same instance, mid-call: no second pipeline run, no hooks again.
        seen.append(context.service.get_matching_queryset(context.params).count())

    people.hooks = {"after": {"get": [nested]}}

    assert people.get(ada.pk, Params())["name"] == "Ada"
    assert seen == [1]


# The event loop's thread and Django's sync thread use their own connections: real commits.
@pytest.mark.django_db(transaction=True)
async def test_async_calls_run_sync_methods_in_the_sync_thread(serve):
    serve({"people": P + "EventfulPeople"})
    await Person.objects.acreate(name="Ada", age=36)
    context = CallContext(get_service("people"), "find", params=Params(query={"name": "Ada"}))

    try:
        result = await run_call_async(context)
    finally:
        # Django's sync thread outlives the test: its connection must not.
        await sync_to_async(connections.close_all)()

    assert [person["name"] for person in result] == ["Ada"]


def test_rest_calls_still_refuse_before_authenticating(api, serve):
    serve({"guarded": P + "GuardedService"})

    assert_error(
        api.delete("/guarded/1"),
        "MethodNotAllowed",
        "Method `remove` is not supported by this endpoint.",
        405,
        "method-not-allowed",
    )
    assert api.get("/guarded").status_code == 401


def test_rest_calls_see_the_authenticated_user(api, serve, member):
    serve({"guarded": P + "GuardedService"})
    api.force_authenticate(member)

    assert body(api.get("/guarded")) == [{"user": "member@example.com", "provider": "rest"}]


@pytest.mark.parametrize("provider", ["rest", "internal", "internal with a provider"])
def test_a_service_reads_the_call_from_its_one_context(api, serve, member, provider):
    serve({"groups/:groupId/state": P + "CallStateService"})

    if provider == "rest":
        seen = body(api.get("/groups/7/state/1"))
    else:
        given = "rest" if provider == "internal with a provider" else None
        state = get_service("groups/:groupId/state")
        seen = state.get("1", Params(route={"groupId": "7"}, provider=given, user=member))
        assert state.call is None or not state._calling

    assert seen["copied"] == []
    assert seen["one_source"] is True
    assert (seen["method"], seen["route"]) == ("get", {"groupId": "7"})
    assert seen["request"] == ("NoneType" if provider == "internal" else "Request")

"""Feathers hooks: their order, skipping the method, replacing errors, reshaping results."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from django_services.errors import Forbidden, NotFound
from django_services.server import Params, get_service
from django_services.server.rest.views import service_view
from tests.server import pipeline_services
from tests.server.http import assert_error, body, send
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db

P = "tests.server.pipeline_services."


@pytest.fixture(autouse=True)
def _clear_trail():
    pipeline_services.TRAIL.clear()
    yield
    pipeline_services.TRAIL.clear()


APP_HOOKS = {
    "around": [P + "app_around"],
    "before": {"all": [P + "app_before"]},
    "after": {"get": [P + "app_after"]},
    "error": [P + "app_error"],
}


def test_hooks_run_in_feathers_order_over_http(api, serve):
    serve({"people": P + "OrderedPeople"}, HOOKS=APP_HOOKS)
    ada = Person.objects.create(name="Ada", age=36)

    response = api.get(f"/people/{ada.pk}")

    assert (response.status_code, body(response)["name"]) == (200, "Ada")
    assert pipeline_services.TRAIL == [
        "app-around:enter",
        "around-all:enter",
        "around-get:enter",
        "app-before:get",
        "before-all:before:get",
        "before-get:before:get",
        "method:get",
        "after-all:after:get",
        "after-get:after:get",
        "app-after:get",
        "around-get:exit",
        "around-all:exit",
        "app-around:exit",
    ]


def test_error_hooks_run_service_first_then_app_wide(api, serve):
    serve({"people": P + "OrderedPeople"}, HOOKS=APP_HOOKS)

    response = api.get("/people/424242")

    assert_error(response, "NotFound", "No record found for id '424242'", 404, "not-found")
    # Around hooks are left by the error; error hooks see it, service ones first.
    assert pipeline_services.TRAIL == [
        "app-around:enter",
        "around-all:enter",
        "around-get:enter",
        "app-before:get",
        "before-all:before:get",
        "before-get:before:get",
        "method:get",
        "error-all:error:get",
        "error-get:error:get",
        "app-error:NotFound",
    ]


def test_internal_calls_run_the_same_hooks(serve):
    serve({"people": P + "OrderedPeople"}, HOOKS=APP_HOOKS)
    ada = Person.objects.create(name="Ada", age=36)

    assert get_service("people").get(ada.pk, Params())["name"] == "Ada"

    assert "method:get" in pipeline_services.TRAIL
    assert pipeline_services.TRAIL[0] == "app-around:enter"
    assert pipeline_services.TRAIL[-1] == "app-around:exit"


def test_a_result_set_before_the_method_skips_it(api, serve, django_assert_num_queries):
    serve({"people": P + "HookedPeople"})

    with django_assert_num_queries(0):
        response = api.get("/people/0")

    assert body(response) == {"id": 0, "name": "From the cache", "age": None, "created": False}


def test_before_hooks_change_the_data_and_drf_write_hooks_still_run(api, serve):
    serve({"people": P + "HookedPeople"})

    response = send(api, "POST", "/people", {"name": "Ada", "age": 1})

    assert response.status_code == 201
    assert (body(response)["age"], body(response)["created"]) == (99, True)
    assert Person.objects.get().age == 99


def test_the_query_is_parsed_after_the_before_hooks(api, serve):
    serve({"people": P + "HookedPeople"})
    Person.objects.create(name="Ada", age=36)
    Person.objects.create(name="Kid", age=9)

    page = body(api.get("/people?$sort[name]=1"))

    # The before hook narrowed the query; the after hook reshaped the records.
    assert [person["name"] for person in page] == ["ADA"]


def test_an_error_hook_replaces_the_error(api, serve):
    serve({"people": P + "HookedPeople"})

    assert_error(
        api.get("/people/424242"), "Forbidden", "You may not look at that person", 403, "forbidden"
    )
    with pytest.raises(Forbidden):
        get_service("people").get(424242, Params())


def test_an_error_hook_may_answer_a_result_instead(api, serve):
    serve({"people": P + "HookedPeople"})

    response = send(api, "POST", "/people", {"name": ""})

    assert response.status_code == 201
    assert body(response) == {"recovered": "name: This field may not be blank."}
    assert not Person.objects.exists()


def test_without_error_hooks_the_error_is_the_methods(serve):
    serve({"people": P + "HookedPeople"})
    with pytest.raises(NotFound):
        get_service("people").patch(424242, {"name": "Nobody"}, Params())


async def test_async_methods_await_async_hooks_and_call_sync_ones(serve):
    serve({"pings": P + "HookedAsyncService"})
    service = get_service("pings")

    result = await service.get("7", Params(query={"tags": ["ignored"]}))

    assert result == {"id": "7", "tags": ["async-before"], "after": "async", "sync": True}
    assert pipeline_services.TRAIL == ["async-around:enter", "async-around:exit"]


def test_async_methods_are_served_over_http(api, serve):
    serve({"pings": P + "HookedAsyncService"})

    response = send(api, "POST", "/pings", {"text": "hi"})

    assert (response.status_code, body(response)) == (201, {"text": "hi", "saved": True})


def test_an_async_hook_on_a_sync_method_is_a_clear_error(serve):
    serve({"sync": P + "AsyncHookOnSyncMethod"})

    with pytest.raises(ImproperlyConfigured, match="async hooks need an async method"):
        get_service("sync").find(Params())


def test_hooks_on_methods_the_service_lacks_are_refused(serve):
    class Typo(pipeline_services.HookedPeople):
        hooks = {"before": {"fnd": [pipeline_services.stamp_age]}}

    with pytest.raises(ImproperlyConfigured, match="'fnd', which the service does not implement"):
        service_view(Typo)


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        (["a"], "must be a dict of hook types"),
        ({"beforehand": []}, "unknown hook type 'beforehand'"),
        ({"before": ["no.such.hook"]}, "Could not import 'no.such.hook'"),
        ({"after": {"all": [42]}}, r"\['after'\]\['all'\]\[0\] must be a callable"),
    ],
)
def test_app_wide_hooks_are_checked_at_start_up(serve, hooks, message):
    serve({"people": P + "HookedPeople"}, HOOKS=hooks)

    with pytest.raises(SystemCheckError, match=message):
        call_command("check")

"""Services and hooks of the call pipeline tests: hooks that record the order they ran in."""

from __future__ import annotations

import asyncio

from rest_framework import permissions, serializers, throttling

from django_services.errors import BadRequest, Forbidden, NotFound
from django_services.server import ModelService, Service, service_method
from tests.testapp.models import Person

#: What the recording hooks saw, in order; reset by the tests.
TRAIL: list[str] = []


def recorder(label):
    def hook(context):
        TRAIL.append(f"{label}:{context.type}:{context.method}")

    hook.__qualname__ = f"recorder({label!r})"
    return hook


def around(label):
    def hook(context, next):
        TRAIL.append(f"{label}:enter")
        next()
        TRAIL.append(f"{label}:exit")

    return hook


def app_before(context):
    TRAIL.append(f"app-before:{context.method}")


def app_after(context):
    TRAIL.append(f"app-after:{context.method}")


def app_around(context, next):
    TRAIL.append("app-around:enter")
    next()
    TRAIL.append("app-around:exit")


def app_error(context):
    TRAIL.append(f"app-error:{type(context.error).__name__}")


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age", "created"]


class OrderedPeople(ModelService):
    """Hooks of every kind, for all methods and for one, to check the order they run in."""

    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    hooks = {
        "around": {"all": [around("around-all")], "get": [around("around-get")]},
        "before": {"all": [recorder("before-all")], "get": [recorder("before-get")]},
        "after": {"all": [recorder("after-all")], "get": [recorder("after-get")]},
        "error": {"all": [recorder("error-all")], "get": [recorder("error-get")]},
    }

    def get(self, id, params):
        TRAIL.append("method:get")
        return super().get(id, params)


def cached_answer(context):
    """A before hook answering `get` of id 0 without the method."""
    if str(context.id) == "0":
        context.result = {"id": 0, "name": "From the cache", "age": None, "created": False}


def stamp_age(context):
    """A before hook changing the data the method receives."""
    context.data = {**context.data, "age": 99}


def adults_only(context):
    """A before hook narrowing the query, parsed after it by the model service."""
    context.params.query = {**context.params.query, "age": {"$gte": 18}}


def shout_names(context):
    """An after hook reshaping the result."""
    result = context.result
    records = result["data"] if isinstance(result, dict) else result
    for record in records:
        record["name"] = record["name"].upper()


def hide_not_found(context):
    """An error hook replacing one error with another."""
    if isinstance(context.error, NotFound):
        context.error = Forbidden("You may not look at that person")


def recover_bad_request(context):
    """An error hook answering a result instead of the error."""
    if isinstance(context.error, BadRequest):
        context.result = {"recovered": str(context.error)}


class HookedPeople(ModelService):
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    multi = True
    hooks = {
        "before": {
            "get": [cached_answer],
            "create": [stamp_age],
            "find": [adults_only],
        },
        "after": {"find": [shout_names]},
        "error": {"get": [hide_not_found], "create": [recover_bad_request]},
    }

    def perform_create(self, serializer):
        # DRF's write hook still runs between the hooks and the database.
        serializer.save(created=True)


class EventfulPeople(ModelService):
    """Multi writes allowed, a custom event, and a custom method that emits it."""

    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    multi = True
    events = ["birthday"]

    @service_method
    def celebrate(self, data, params):
        person = Person.objects.get(pk=data["id"])
        person.age += 1
        person.save()
        self.emit("birthday", {"id": person.pk, "age": person.age})
        return {"id": person.pk}


class OnlyStaff(permissions.BasePermission):
    def has_permission(self, request, view):
        return bool(request.user and request.user.is_staff)


class GuardedService(Service):
    """Needs an authenticated user, and a staff one to create."""

    permission_classes = [permissions.IsAuthenticated]

    def find(self, params):
        return [{"user": params.user.email, "provider": params.provider}]

    def create(self, data, params):
        return data

    def get_permissions(self):
        if self.action == "create":
            return [permissions.IsAuthenticated(), OnlyStaff()]
        return super().get_permissions()


class TwoPerMinute(throttling.UserRateThrottle):
    rate = "2/min"
    scope = "pipeline-user"


class ThrottledPerUser(Service):
    throttle_classes = [TwoPerMinute]

    def find(self, params):
        return []


class AsyncService(Service):
    """Async methods, whose hooks may be async too."""

    events = ["pinged"]

    async def get(self, id, params):
        await asyncio.sleep(0)
        return {"id": id, "tags": list(params.query.get("tags", []))}

    async def create(self, data, params):
        await asyncio.sleep(0)
        return {**data, "saved": True}


async def async_tag(context):
    await asyncio.sleep(0)
    context.params.query = {"tags": ["async-before"]}


async def async_after(context):
    await asyncio.sleep(0)
    context.result = {**context.result, "after": "async"}


def sync_after(context):
    context.result = {**context.result, "sync": True}


async def async_around(context, next):
    TRAIL.append("async-around:enter")
    await next()
    TRAIL.append("async-around:exit")


class HookedAsyncService(AsyncService):
    hooks = {
        "around": [async_around],
        "before": {"get": [async_tag]},
        "after": {"get": [async_after, sync_after]},
    }


class AsyncHookOnSyncMethod(Service):
    hooks = {"before": [async_tag]}

    def find(self, params):
        return []


#: Call state a DRF view keeps on itself; a service reads it from its call instead.
VIEW_STATE = ("action", "args", "kwargs", "params", "path_id", "request", "route")


class CallStateService(Service):
    """Answers how it sees the call it answers: through its one reference to the context."""

    def get(self, id, params):
        call = self.call
        return {
            "method": self.action,
            "route": self.kwargs,
            "request": type(self.request).__name__,
            "one_source": (
                call.params is params is self.params
                and self.request is call.request
                and self.action == call.method
                and self.kwargs is call.params.route
            ),
            "copied": sorted(name for name in VIEW_STATE if name in vars(self)),
        }

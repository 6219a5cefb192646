"""
The services the shared-service tests call from many threads and coroutines at once, and the
hooks that count their calls.

Each call carries its number in `params.query["n"]` (or its record's name); the hooks record
it, and the methods answer what the call sees of itself (its params, `self.params`,
`self.action`, the context). A barrier, set by the test, holds every call inside its method
until all of them are there, so the calls overlap on the one instance.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from typing import Any

from django_services.server import ModelService, Service
from tests.interop.conformance.services import PersonSerializer
from tests.testapp.models import Person

#: How long a call waits for the others at the barrier before the test fails.
BARRIER_TIMEOUT = 60.0

#: Call numbers seen by each hook: ("app" | "service", n) -> times.
counted: Counter[tuple[str, str]] = Counter()
_counting = threading.Lock()

#: Set by the tests: the calls meet here inside their method.
barrier: threading.Barrier | None = None
async_barrier: AsyncBarrier | None = None


class AsyncBarrier:
    """`asyncio.Barrier` (Python 3.11) for one use: `wait()` returns once `parties` wait."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.arrived = 0
        self.all_here = asyncio.Event()

    async def wait(self) -> None:
        self.arrived += 1
        if self.arrived >= self.parties:
            self.all_here.set()
        await self.all_here.wait()


def call_key(context: Any) -> str:
    """The number of a call: `query.n`, else the name it reads or writes."""
    query = context.params.query
    if "n" in query:
        return str(query["n"])
    if "name" in query:
        return str(query["name"])
    return str(context.data["name"])


def _count(kind: str, context: Any) -> None:
    with _counting:
        counted[(kind, call_key(context))] += 1


def count_app(context: Any) -> None:
    """The app-wide `before` hook: one count per call."""
    _count("app", context)


def count_service(context: Any) -> None:
    """The service's `before` hook: one count per call."""
    _count("service", context)


def seen(service: Any, params: Any) -> dict[str, Any]:
    """What a call sees of itself, from its arguments and from the service's DRF idioms."""
    return {
        "n": params.query["n"],
        "self_params": service.params.query["n"] if service.params is not None else None,
        "action": service.action,
        "context": service.call.params.query["n"] if service.call is not None else None,
    }


class SharedService(Service):
    """A plain service whose `find` waits for every other call inside it."""

    hooks = {"before": {"find": [count_service]}}

    def find(self, params: Any) -> dict[str, Any]:
        assert barrier is not None
        barrier.wait(BARRIER_TIMEOUT)
        return seen(self, params)


class AsyncSharedService(Service):
    """The same, with an `async def find` awaited on the caller's event loop."""

    hooks = {"before": {"find": [count_service]}}

    async def find(self, params: Any) -> dict[str, Any]:
        assert async_barrier is not None
        await asyncio.wait_for(async_barrier.wait(), BARRIER_TIMEOUT)
        return seen(self, params)


class SharedPeople(ModelService):
    """People, with a counting hook; `get_queryset` reads the call's own request and action."""

    queryset = Person.objects.order_by("pk")
    serializer_class = PersonSerializer
    paginate = False
    hooks = {"before": {"all": [count_service]}}

    def get_queryset(self) -> Any:
        assert self.action in ("find", "create"), self.action
        return super().get_queryset()

    def perform_create(self, serializer: Any) -> None:
        # The call's own request, as a DRF view reads it.
        serializer.save(age=int(self.request.data["name"][1:]))

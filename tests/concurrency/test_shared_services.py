"""
One service instance shared by many callers at once, as Feathers' `app.service()` is: every
call runs its hooks once, sees only its own params and DRF state, and leaves nothing behind.

In process, one `get_service()` result is called by 16 threads and by 16 coroutines (sync
methods through `asyncio.to_thread`, async methods awaited on the loop), every call held inside
its method until all are there; over the wire, 16 REST requests and 16 socket.io calls reach
one server's service at the same time.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from django_services.server import Params, get_service
from tests.concurrency import shared_services
from tests.server.socketio.conftest import Client, LiveSocketServer

CALLS = 16
S = "tests.concurrency.shared_services."


@pytest.fixture
def shared(settings) -> Iterator[None]:
    settings.DJANGO_SERVICES = {
        "SERVICES": {
            "shared": S + "SharedService",
            "shared-async": S + "AsyncSharedService",
            "people": S + "SharedPeople",
        },
        "HOOKS": {"before": {"all": [S + "count_app"]}},
    }
    shared_services.counted.clear()
    yield
    shared_services.barrier = shared_services.async_barrier = None


def hooks_ran_once_each(keys: list[str]) -> Counter[tuple[str, str]]:
    return Counter({(kind, key): 1 for kind in ("app", "service") for key in keys})


def own(n: int) -> dict[str, Any]:
    """What call number `n` must see of itself."""
    return {"n": str(n), "self_params": str(n), "action": "find", "context": str(n)}


def find(service: Any, n: int) -> Any:
    return service.find(Params(query={"n": str(n)}))


def test_threads_share_one_service_and_each_call_runs_its_hooks_once(shared):
    service = get_service("shared")
    before = dict(vars(service))
    shared_services.barrier = threading.Barrier(CALLS)

    with ThreadPoolExecutor(CALLS) as pool:
        results = list(pool.map(lambda n: find(service, n), range(CALLS)))

    assert results == [own(n) for n in range(CALLS)]
    assert shared_services.counted == hooks_ran_once_each([str(n) for n in range(CALLS)])
    assert vars(service) == before


def test_coroutines_share_one_service_through_threads(shared):
    service = get_service("shared")
    before = dict(vars(service))
    shared_services.barrier = threading.Barrier(CALLS)

    async def calls() -> list[Any]:
        # asyncio.to_thread's executor, wide enough for every call to wait at the barrier.
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(CALLS))
        return await asyncio.gather(*(asyncio.to_thread(find, service, n) for n in range(CALLS)))

    results = asyncio.run(calls())

    assert results == [own(n) for n in range(CALLS)]
    assert shared_services.counted == hooks_ran_once_each([str(n) for n in range(CALLS)])
    assert vars(service) == before


def test_coroutines_share_one_service_with_async_methods(shared):
    service = get_service("shared-async")
    before = dict(vars(service))

    async def calls() -> list[Any]:
        shared_services.async_barrier = shared_services.AsyncBarrier(CALLS)
        return await asyncio.gather(*(find(service, n) for n in range(CALLS)))

    results = asyncio.run(calls())

    assert results == [own(n) for n in range(CALLS)]
    assert shared_services.counted == hooks_ran_once_each([str(n) for n in range(CALLS)])
    assert vars(service) == before


@pytest.fixture
def server(shared, transactional_db) -> Iterator[LiveSocketServer]:
    with LiveSocketServer() as started:
        yield started


def rest_calls(url: str, method: str, values: list[Any], *, together: bool = True) -> list[Any]:
    def call(value: Any) -> Any:
        if method == "create":
            response = requests.post(url + "/people", json=value, timeout=60)
        else:
            response = requests.get(url + "/people", params=value, timeout=60)
        assert response.status_code in (200, 201), response.text
        return response.json()

    with ThreadPoolExecutor(CALLS if together else 1) as pool:
        return list(pool.map(call, values))


def socket_calls(url: str, method: str, values: list[Any], *, together: bool = True) -> list[Any]:
    async def calls() -> list[Any]:
        client = await Client(url, "websocket").connect()
        try:
            if not together:
                return [await client.call(method, "people", value) for value in values]
            return await asyncio.gather(*(client.call(method, "people", value) for value in values))
        finally:
            await client.close()

    return asyncio.run(calls())


@pytest.mark.parametrize("transport", ["rest", "socketio"])
def test_calls_at_once_over_a_transport_each_run_their_hooks_once(server, transport):
    send = rest_calls if transport == "rest" else socket_calls
    names = [f"P{n}" for n in range(CALLS)]

    # One after the other: SQLite writes one at a time, and answers a busy 503 otherwise.
    created = send(server.url, "create", [{"name": name} for name in names], together=False)
    found = send(server.url, "find", [{"name": name} for name in names])

    assert [(person["name"], person["age"]) for person in created] == [
        (name, n) for n, name in enumerate(names)
    ]
    assert [[person["id"] for person in people] for people in found] == [
        [person["id"]] for person in created
    ]
    assert shared_services.counted == Counter(
        {(kind, name): 2 for kind in ("app", "service") for name in names}
    )

"""The fixed threads ASGI requests borrow: one request per thread, the others wait in turn."""

from __future__ import annotations

import asyncio
import threading

import pytest

from django_services.request_threads import RequestThreads


def test_each_thread_is_lent_to_one_request_and_waiting_requests_are_served_in_turn():
    threads = RequestThreads(2)
    served: list[int] = []

    async def request(index: int, release: asyncio.Event) -> int:
        executor = await threads.acquire()
        served.append(index)
        await release.wait()
        thread = await asyncio.get_running_loop().run_in_executor(executor, threading.get_ident)
        threads.release(executor)
        return thread

    async def scenario() -> None:
        releases = [asyncio.Event() for _ in range(4)]
        tasks = [asyncio.create_task(request(index, releases[index])) for index in range(4)]
        while len(served) < 2:
            await asyncio.sleep(0)
        # Two threads, two requests served; the others wait until one is released.
        for _ in range(20):
            await asyncio.sleep(0)
        assert served == [0, 1]
        releases[1].set()
        await tasks[1]
        while len(served) < 3:
            await asyncio.sleep(0)
        assert served == [0, 1, 2]
        for release in releases:
            release.set()
        used = set(await asyncio.gather(*tasks))
        assert len(used) == 2

    try:
        asyncio.run(scenario())
    finally:
        threads.close()


def test_a_request_cancelled_while_waiting_leaves_the_thread_to_the_next():
    threads = RequestThreads(1)

    async def scenario() -> None:
        held = await threads.acquire()
        cancelled = asyncio.create_task(threads.acquire())
        waiting = asyncio.create_task(threads.acquire())
        await asyncio.sleep(0)
        cancelled.cancel()
        threads.release(held)
        assert await asyncio.wait_for(waiting, 30) is held

    try:
        asyncio.run(scenario())
    finally:
        threads.close()


def test_closed_threads_lend_no_more():
    threads = RequestThreads(1)
    threads.close()
    with pytest.raises(RuntimeError):
        asyncio.run(threads.acquire())
    with pytest.raises(ValueError):
        RequestThreads(0)

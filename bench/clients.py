"""
The client benchmarks: django-feathers' client against the raw HTTP libraries it wraps, on one
keep-alive server (gunicorn gthread), in alternating rounds.

    results = run_client_benchmarks("http://127.0.0.1:8000", rows=100_000, rounds=5)

* **sequential get** - a loop of `service.get(id)` over a requests.Session (or httpx.Client)
  against `session.get(url, timeout=...)`, `raise_for_status()`, `.json()` on the same kind
  of session: seconds per call and the client's own CPU time per call.
* **async get x32** - batches of 32 concurrent `await service.get(id)` over an
  httpx.AsyncClient (or aiohttp.ClientSession) against the same with the raw library.

Every variant asks for the same ids in the same order, and the variants take turns every 10
sequential calls or every batch, so that the server's ups and downs reach all of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Awaitable, Callable
from statistics import median
from typing import Any

import httpx
import requests

from django_services.client import rest_client

CONCURRENCY = 32
#: Sequential calls a variant makes before the next variant takes its turn.
SEQUENTIAL_CHUNK = 10
TIMEOUT = 10.0


@dataclasses.dataclass
class ClientResult:
    """Per variant: wall seconds and client CPU seconds per call, one value per round."""

    wall: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    cpu: dict[str, list[float]] = dataclasses.field(default_factory=dict)

    def add(self, variant: str, wall: float, cpu: float, calls: int) -> None:
        self.wall.setdefault(variant, []).append(wall / calls)
        self.cpu.setdefault(variant, []).append(cpu / calls)

    def ratio(self, ours: str, raw: str) -> float:
        """Median over rounds of ours' wall time per call over raw's (same round)."""
        return median(a / b for a, b in zip(self.wall[ours], self.wall[raw], strict=True))

    def median_ms(self, variant: str) -> float:
        return median(self.wall[variant]) * 1000

    def cpu_us(self, variant: str) -> float:
        return median(self.cpu[variant]) * 1e6


def _sequential_variants(base: str) -> dict[str, Callable[[int], Any]]:
    url = f"{base}/services/people/"
    session = requests.Session()
    ours_session = requests.Session()
    client = httpx.Client()
    ours_client = httpx.Client()
    ours_requests = rest_client(f"{base}/services").requests(
        ours_session, options={"timeout": TIMEOUT}
    )
    ours_httpx = rest_client(f"{base}/services").httpx(ours_client, options={"timeout": TIMEOUT})
    requests_people = ours_requests.service("people")
    httpx_people = ours_httpx.service("people")

    def raw_requests(pk: int) -> Any:
        response = session.get(f"{url}{pk}", timeout=TIMEOUT)
        response.raise_for_status()
        return response.json()

    def raw_httpx(pk: int) -> Any:
        response = client.get(f"{url}{pk}", timeout=TIMEOUT)
        response.raise_for_status()
        return response.json()

    return {
        "requests (raw)": raw_requests,
        "requests (ours)": requests_people.get,
        "httpx (raw)": raw_httpx,
        "httpx (ours)": httpx_people.get,
    }


async def _async_round(base: str, ids: list[int], results: ClientResult, order: list[str]) -> None:
    import aiohttp

    url = f"{base}/services/people/"
    async with (
        httpx.AsyncClient(timeout=TIMEOUT) as raw_httpx_client,
        httpx.AsyncClient() as ours_httpx_client,
        aiohttp.ClientSession() as raw_aiohttp_session,
        aiohttp.ClientSession() as ours_aiohttp_session,
    ):
        httpx_people = (
            rest_client(f"{base}/services")
            .httpx(ours_httpx_client, options={"timeout": TIMEOUT})
            .service("people")
        )
        aiohttp_people = (
            rest_client(f"{base}/services")
            .aiohttp(ours_aiohttp_session, options={"timeout": TIMEOUT})
            .service("people")
        )

        async def raw_httpx(pk: int) -> Any:
            response = await raw_httpx_client.get(f"{url}{pk}")
            response.raise_for_status()
            return response.json()

        async def raw_aiohttp(pk: int) -> Any:
            async with raw_aiohttp_session.get(
                f"{url}{pk}", timeout=aiohttp.ClientTimeout(total=TIMEOUT)
            ) as response:
                response.raise_for_status()
                return await response.json()

        variants: dict[str, Callable[[int], Awaitable[Any]]] = {
            "httpx async (raw)": raw_httpx,
            "httpx async (ours)": httpx_people.get,
            "aiohttp (raw)": raw_aiohttp,
            "aiohttp (ours)": aiohttp_people.get,
        }
        for name in order:
            await _batch(variants[name], ids[:CONCURRENCY])  # open the connections first
        # Batch by batch, each variant in turn: a slow moment of the server hits them alike.
        wall = dict.fromkeys(order, 0.0)
        cpu = dict.fromkeys(order, 0.0)
        for index, start in enumerate(range(0, len(ids), CONCURRENCY)):
            batch = ids[start : start + CONCURRENCY]
            for name in order if index % 2 == 0 else reversed(order):
                started, cpu_started = time.perf_counter(), time.process_time()
                await _batch(variants[name], batch)
                wall[name] += time.perf_counter() - started
                cpu[name] += time.process_time() - cpu_started
        for name in order:
            results.add(name, wall[name], cpu[name], len(ids))


async def _batch(call: Callable[[int], Awaitable[Any]], ids: list[int]) -> None:
    await asyncio.gather(*(call(pk) for pk in ids))


def run_client_benchmarks(
    base: str, *, rows: int, rounds: int, calls: int
) -> tuple[ClientResult, ClientResult]:
    """The sequential and the async results, `calls` calls per variant and round."""
    generator = random.Random(7)
    ids = [generator.randint(1, rows) for _ in range(calls)]
    sequential = ClientResult()
    variants = _sequential_variants(base)
    for call in variants.values():
        for pk in ids[:20]:
            call(pk)
    async_names = ["httpx async (raw)", "httpx async (ours)", "aiohttp (raw)", "aiohttp (ours)"]
    concurrent = ClientResult()
    async_ids = ids * 2
    for index in range(rounds):
        # Chunk by chunk, each variant in turn, which one goes first alternating: a slow
        # moment of the server hits every variant alike.
        wall = dict.fromkeys(variants, 0.0)
        cpu = dict.fromkeys(variants, 0.0)
        for chunk_index, start in enumerate(range(0, len(ids), SEQUENTIAL_CHUNK)):
            chunk = ids[start : start + SEQUENTIAL_CHUNK]
            names = list(variants) if chunk_index % 2 == 0 else list(reversed(variants))
            for name in names:
                call = variants[name]
                started, cpu_started = time.perf_counter(), time.process_time()
                for pk in chunk:
                    call(pk)
                wall[name] += time.perf_counter() - started
                cpu[name] += time.process_time() - cpu_started
        for name in variants:
            sequential.add(name, wall[name], cpu[name], len(ids))
        order = async_names if index % 2 == 0 else list(reversed(async_names))
        asyncio.run(_async_round(base, async_ids, concurrent, order))
    return sequential, concurrent

"""
The scenarios: a writer writes at a steady rate while the clients' network, a server, Redis or
the database fails, then every client must end with every committed record's event, once, in
commit order for each record.

    result = run(SCENARIOS["cut"], logs, ["python", "feathers-js"])
    for outcome in result.outcomes:     # one per client and server it connected to
        outcome.client, outcome.server, outcome.tally.complete, outcome.connects
    result.answered, result.failed      # the writer's writes answered, and those not

Each run starts its own deployment (`Deployment`) on a fresh database, a user, and the clients
logged in as that user through the proxies (with two servers, each kind of client on each),
all in the `authenticated` channel to which every `people` event goes. The writer writes
`settle` times, the scenario breaks something for `gap` writes (or as long as the server takes
to start again), then `settle` writes more; the end is a barrier record that only the event
log holds (`Deployment.barrier()`): each process sends it after every event logged before it,
so a client that has it has had every chance at the others.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import requests

from tests.waiting import eventually

from .deployment import Deployment
from .listeners import Listener, listen
from .tally import Tally
from .writer import Writer

CREDENTIALS = {"strategy": "local", "email": "chaos@example.com", "password": "chaos-secret"}

#: Seconds the clients may take to receive the barrier, reconnects included.
BARRIER_TIMEOUT = 60.0


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one client ended with."""

    client: str
    #: The server it connected to first.
    server: str
    tally: Tally
    #: Every connect, in order: whether it recovered the session.
    connects: list[bool]
    #: Whether the scenario cut the client's connection (it must have recovered).
    cut_off: bool

    def failures(self) -> list[str]:
        """What went wrong, if anything."""
        problems = [] if self.tally.complete else [self.tally.report()]
        if self.cut_off and (len(self.connects) < 2 or not all(self.connects[1:])):
            problems.append(f"the reconnects did not all recover: {self.connects}")
        return problems


@dataclasses.dataclass(frozen=True)
class Run:
    """One run of a scenario: each client's outcome, and the writer's figures."""

    outcomes: list[Outcome]
    #: Writes answered with success, and writes without an answer or with an error.
    answered: int
    failed: int
    #: Database connections terminated (the PostgreSQL scenario).
    terminated: int
    seconds: float


@dataclasses.dataclass(frozen=True)
class Scenario:
    """What breaks, on which deployment."""

    name: str
    title: str
    act: Callable[[Deployment, Writer, int], None]
    servers: int = 1
    redis: bool = False
    postgres_only: bool = False
    #: The servers whose clients lose their connection.
    broken: tuple[str, ...] = ("asgi-1",)


def cut(deployment: Deployment, writer: Writer, gap: int) -> None:
    """The proxy cuts every connection and refuses new ones for `gap` writes."""
    proxy = deployment.proxies["asgi-1"]
    proxy.down()
    writer.wait_for(gap)
    proxy.up()


def restart(deployment: Deployment, writer: Writer, gap: int) -> None:
    """The server is SIGKILLed mid-stream and started again on its port."""
    deployment.kill("asgi-1")
    deployment.restart("asgi-1")


def failover(deployment: Deployment, writer: Writer, gap: int) -> None:
    """One of two processes is SIGKILLed; its proxy sends its clients to the other."""
    deployment.kill("asgi-1")
    deployment.proxies["asgi-1"].up(deployment.url("asgi-2"))
    writer.wait_for(gap)


def redis_restart(deployment: Deployment, writer: Writer, gap: int) -> None:
    """Redis is SIGKILLed for `gap` writes, then started again on its port."""
    assert deployment.redis is not None
    deployment.redis.kill()
    writer.wait_for(gap)
    deployment.redis.start()


def database_connections(deployment: Deployment, writer: Writer, gap: int) -> None:
    """Every PostgreSQL connection of the servers is terminated after each of `gap` writes."""
    for _ in range(gap):
        writer.wait_for(1)
        deployment.terminated += deployment.terminate_database_connections()


def every_failure(deployment: Deployment, writer: Writer, gap: int) -> None:
    """
    Each failure in turn, `gap` writes apart, on two processes on Redis: the first's clients
    cut off, Redis restarted, the first process SIGKILLed and started again, then SIGKILLed
    for good (its clients go to the second), and on PostgreSQL the connections terminated.
    """
    cut(deployment, writer, gap)
    writer.wait_for(gap)
    redis_restart(deployment, writer, gap)
    writer.wait_for(gap)
    restart(deployment, writer, gap)
    writer.wait_for(gap)
    failover(deployment, writer, gap)
    if deployment.is_postgres:
        database_connections(deployment, writer, gap)


SCENARIOS = {
    scenario.name: scenario
    for scenario in (
        Scenario("cut", "network cut by the proxy", cut),
        Scenario("restart", "server SIGKILLed and started again", restart),
        Scenario(
            "failover", "one of two processes on Redis SIGKILLed", failover, servers=2, redis=True
        ),
        Scenario(
            "redis",
            "Redis SIGKILLed and started again",
            redis_restart,
            servers=2,
            redis=True,
            broken=(),
        ),
        Scenario("all", "every failure in turn", every_failure, servers=2, redis=True),
        Scenario(
            "postgres",
            "PostgreSQL's connections terminated",
            database_connections,
            postgres_only=True,
            broken=(),
        ),
    )
}


def _wait_for_barrier(listener: Listener, barrier: dict[str, object], setup: Deployment) -> None:
    try:
        eventually(lambda: ("created", barrier) in listener.events(), BARRIER_TIMEOUT)
    except AssertionError:
        raise AssertionError(
            f"the barrier did not reach {listener.name} in {BARRIER_TIMEOUT} s; it connected "
            f"{listener.connects()} and received {len(listener.events())} events.\n{setup.log()}"
        ) from None


def run(
    scenario: Scenario,
    logs: Path,
    clients: Sequence[str],
    *,
    gap: int = 20,
    settle: int = 10,
    rate: float = 20.0,
) -> Run:
    """Run `scenario` with one listener of each kind in `clients`."""
    started = time.monotonic()
    with Deployment(logs, scenario.name, servers=scenario.servers, redis=scenario.redis) as setup:
        first = setup.url(setup.names[0])
        user = {key: CREDENTIALS[key] for key in ("email", "password")}
        requests.post(f"{first}/users", json=user, timeout=10).raise_for_status()
        placed: list[tuple[Listener, str]] = []
        try:
            for server in setup.names:
                for client in clients:
                    listener = listen(client, setup.proxies[server].url, CREDENTIALS, logs)
                    placed.append((listener.start(), server))
            writer = Writer([setup.url(name) for name in setup.names], rate).start()
            try:
                writer.wait_for(settle)
                scenario.act(setup, writer, gap)
                writer.wait_for(settle)
            finally:
                writer.stop()
            barrier = setup.barrier()
            for listener, _ in placed:
                _wait_for_barrier(listener, barrier, setup)
            records = setup.records()
            del records[barrier["id"]]
            outcomes = [
                Outcome(
                    listener.name,
                    server,
                    Tally.of(records, listener.events()),
                    listener.connects(),
                    server in scenario.broken,
                )
                for listener, server in placed
            ]
            elapsed = time.monotonic() - started
            return Run(outcomes, writer.answered, writer.failed, setup.terminated, elapsed)
        finally:
            for listener, _ in placed:
                listener.close()

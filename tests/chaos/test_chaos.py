"""
Live events are never lost: real server processes, a writer creating and patching people over
REST at a steady rate, and clients (the real Feathers JS client, ours over websocket and over
long-polling) cut off by a proxy, their server SIGKILLed and started again, one of two
processes behind Redis SIGKILLed, Redis restarted, PostgreSQL's connections terminated. Every
client ends with every committed record's event, exactly once, in commit order for each
record, and a client whose connection was cut reports `recovered` at each reconnect.

One scenario makes every failure in turn on one deployment, with short gaps (`all`); the
others make one failure each, on a deployment of their own, with longer gaps
(`python -m bench.chaos` runs them longer still). A scenario runs once, with every client at
the same time (`scenarios.run`); its test is parametrized over the clients, each checking its
own account.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.interop.feathers_js import InstallFailed, NodeMissing, install_packages

from .deployment import redis_server_path
from .scenarios import SCENARIOS, Outcome, Run, run

CLIENTS = pytest.mark.parametrize(
    "client", [pytest.param("feathers-js", marks=pytest.mark.interop), "python", "python-polling"]
)
needs_redis = pytest.mark.skipif(redis_server_path() is None, reason="redis-server not installed")

#: The longer form, each scenario on a deployment of its own, is opt-in for its time:
#: `DJANGO_SERVICES_CHAOS=1 pytest tests/chaos`, or `python -m bench.chaos`. The `all`
#: scenario, every failure in turn on one deployment, runs with the suite.
each_scenario = pytest.mark.skipif(
    not os.environ.get("DJANGO_SERVICES_CHAOS"),
    reason="each scenario on its own: set DJANGO_SERVICES_CHAOS=1",
)
#: The writes of the default run's gaps, and before and after them (`scenarios.run`).
SHORT = {"gap": 10, "settle": 5}
on_postgres = urlsplit(os.environ.get("DATABASE_URL", "")).scheme in ("postgres", "postgresql")


def _node_available() -> bool:
    try:
        install_packages()
    except NodeMissing:
        return False
    except InstallFailed as exc:
        pytest.fail(str(exc), pytrace=False)
    return True


@pytest.fixture(scope="module")
def chaos(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[str, str], list[Outcome]]]:
    """
    `chaos(scenario, client)`: the outcomes of the client (one per server it connected to),
    the scenario run once for all clients.
    """
    logs: Path = tmp_path_factory.mktemp("chaos")
    runs: dict[str, Run | BaseException] = {}
    node: list[bool] = []

    def outcomes(name: str, client: str) -> list[Outcome]:
        if not node:
            node.append(_node_available())
        if client == "feathers-js" and not node[0]:
            pytest.skip("node or npm is not installed")
        if name not in runs:
            clients = ["feathers-js", "python", "python-polling"][0 if node[0] else 1 :]
            try:
                sizes = SHORT if name == "all" else {}
                runs[name] = run(SCENARIOS[name], logs, clients, **sizes)
            except Exception as exc:
                runs[name] = exc
        result = runs[name]
        if isinstance(result, BaseException):
            raise result
        return [outcome for outcome in result.outcomes if outcome.client == client]

    yield outcomes


def check(outcomes: list[Outcome]) -> None:
    assert outcomes
    problems = [
        f"{outcome.client} on {outcome.server}: {problem}"
        for outcome in outcomes
        for problem in outcome.failures()
    ]
    assert not problems, "\n".join(problems)


@needs_redis
@CLIENTS
def test_every_failure_in_turn_loses_no_event(chaos, client):
    check(chaos("all", client))


@each_scenario
@CLIENTS
def test_a_network_cut_loses_no_event(chaos, client):
    check(chaos("cut", client))


@each_scenario
@CLIENTS
def test_a_server_killed_and_started_again_loses_no_event(chaos, client):
    check(chaos("restart", client))


@each_scenario
@needs_redis
@CLIENTS
def test_a_process_killed_behind_redis_loses_no_event(chaos, client):
    check(chaos("failover", client))


@each_scenario
@needs_redis
@CLIENTS
def test_redis_restarted_loses_no_event(chaos, client):
    check(chaos("redis", client))


@each_scenario
@pytest.mark.skipif(not on_postgres, reason="PostgreSQL only (DATABASE_URL)")
@CLIENTS
def test_database_connections_terminated_lose_no_event(chaos, client):
    check(chaos("postgres", client))

"""
The real Feathers JS clients against django-feathers' conformance fixture.

Each mocha spec of node/specs (the official @feathersjs/adapter-tests suite over the wire,
@feathersjs/rest-client with fetch and axios, @feathersjs/socketio-client over websocket and
long-polling, @feathersjs/authentication-client) runs twice: against a real Feathers v5
server, which proves the spec itself right, and against the conformance fixture, which must
pass it the same way (the socket specs against the fixture under uvicorn, `serve --asgi`,
which serves REST on the same port too).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.servers import ProcessServer

from .feathers_js import SpecResults, adapter_catalogue, run_specs

pytestmark = pytest.mark.interop

SPECS = ("adapter", "rest-client", "authentication")
#: Specs over @feathersjs/socketio-client, on websocket and long-polling.
SOCKET_SPECS = ("socket-adapter", "socket-client", "socket-events")
#: What the ASGI fixture must pass: the socket specs, and REST on the same port.
ASGI_SPECS = (*SOCKET_SPECS, "rest-client")
ADAPTER_SPECS = ("adapter", "socket-adapter")
# The adapter suite runs on two services (people, people-customid) over two transports.
ADAPTER_RUNS_PER_TEST = 4


def assert_specs_pass(server: ProcessServer, spec: str, results_dir: Path) -> SpecResults:
    results = run_specs(server.url, [spec], results_dir)
    if results.failed or results.returncode != 0 or not results.passed:
        report = results.failure_report()
        pytest.fail(f"{report}\n\n{server.name} server log:\n{server.log()[-5000:]}", pytrace=False)
    if spec in ADAPTER_SPECS:
        assert_adapter_catalogue_ran(results)
    else:
        assert not results.pending
    return results


def assert_adapter_catalogue_ran(results: SpecResults) -> None:
    """Every wire test of the catalogue passed on each service and transport; no other did."""
    catalogue = adapter_catalogue()
    wire, local_only = catalogue["WIRE_TESTS"], catalogue["LOCAL_ONLY"]
    passed = Counter(_adapter_test_name(title, wire) for title in results.passed)
    assert passed == dict.fromkeys(wire, ADAPTER_RUNS_PER_TEST)
    skipped = {_adapter_test_name(title, local_only) for title in results.pending}
    assert skipped == set(local_only) - {".id"}  # `.id` is left out by name, not skipped


def _adapter_test_name(full_title: str, names) -> str:
    # Full titles end with the test name; pick the longest that matches (".find" vs "... + $in").
    matches = [name for name in names if full_title.endswith(f" {name}")]
    assert matches, f"{full_title!r} is not in the adapter-tests catalogue"
    return max(matches, key=len)


@pytest.mark.parametrize("spec", SPECS + SOCKET_SPECS)
def test_specs_pass_against_a_real_feathers_server(spec, feathers_server, tmp_path):
    assert_specs_pass(feathers_server, spec, tmp_path)


@pytest.mark.parametrize("spec", SPECS)
def test_feathers_clients_work_with_the_conformance_fixture(
    spec, node_packages, conformance_server, tmp_path
):
    assert_specs_pass(conformance_server, spec, tmp_path)


@pytest.mark.parametrize("spec", ASGI_SPECS)
def test_feathers_socket_clients_work_with_the_asgi_conformance_fixture(
    spec, node_packages, conformance_asgi_server, tmp_path
):
    assert_specs_pass(conformance_asgi_server, spec, tmp_path)


def test_the_feathers_rest_client_sends_if_match_and_gets_the_412(
    node_packages, conformance_server, tmp_path
):
    # The conformance fixture only: a Feathers server has no conditional requests.
    assert_specs_pass(conformance_server, "conditional", tmp_path)


def test_the_feathers_socket_client_carries_if_match_as_a_query_key(
    node_packages, conformance_asgi_server, tmp_path
):
    assert_specs_pass(conformance_asgi_server, "socket-conditional", tmp_path)

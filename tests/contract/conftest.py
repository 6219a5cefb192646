"""The client's wire tests use the client tests' fixtures; the server's, the server tests'."""

from tests.client.conftest import harness, wire, wire_server  # noqa: F401 - fixtures
from tests.server.conftest import serve  # noqa: F401 - the fixture

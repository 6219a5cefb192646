"""The server tests' fixtures, for the request traced through the package's modules."""

from tests.server.conftest import api, serve  # noqa: F401 - fixtures

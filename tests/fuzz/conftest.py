"""The server tests' fixtures: a DRF client, and services wired through the settings."""

from tests.server.conftest import _clear_cache, api, serve  # noqa: F401 - fixtures

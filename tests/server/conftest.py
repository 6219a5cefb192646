"""Fixtures of the server tests: a DRF client, and services wired through the settings."""

from __future__ import annotations

import pytest


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def lenient_api():
    """A client that returns 500 responses instead of raising the server's exception."""
    from rest_framework.test import APIClient

    return APIClient(raise_request_exception=False)


@pytest.fixture
def serve(settings):
    """`serve({"path": "dotted.Class", ...}, **other_keys)` sets DJANGO_SERVICES for the test."""

    def configure(services, **keys):
        settings.DJANGO_SERVICES = {"SERVICES": services, **keys}

    return configure


@pytest.fixture(autouse=True)
def _clear_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()

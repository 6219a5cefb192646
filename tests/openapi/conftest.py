"""
The test services (`services.py`) with the drf-spectacular settings the docs recommend, and
the example project's server for the tests that run against it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings

from django_services.openapi.conf import SPECTACULAR_DEFAULTS
from tests.example.conftest import connect, demo, example_server, log_in  # noqa: F401

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_services",
    "django_services.openapi",
    "tests.testapp",
]


@pytest.fixture
def openapi_settings() -> Iterator[None]:
    """The test services, drf-spectacular's settings, the schema and docs URLs."""
    from .services import DJANGO_SERVICES

    configured = {**SPECTACULAR_DEFAULTS, "TITLE": "Tests", "VERSION": "1.0.0"}
    with (
        override_settings(
            INSTALLED_APPS=INSTALLED_APPS,
            DJANGO_SERVICES=DJANGO_SERVICES,
            SPECTACULAR_SETTINGS=configured,
            ROOT_URLCONF="tests.openapi.urls",
        ),
        spectacular_settings_of(configured),
    ):
        yield


@contextlib.contextmanager
def spectacular_settings_of(configured: dict[str, Any]) -> Iterator[None]:
    """
    drf-spectacular reads `SPECTACULAR_SETTINGS` once, when first imported (not again when
    `override_settings` changes it): load `configured` into its settings, then put back.
    """
    from drf_spectacular.settings import spectacular_settings

    previous = spectacular_settings.user_settings
    spectacular_settings.reload()
    spectacular_settings._user_settings = configured
    try:
        yield
    finally:
        spectacular_settings.reload()
        spectacular_settings._user_settings = previous


@pytest.fixture
def schema(openapi_settings: None) -> dict[str, Any]:
    """The schema of the test services, as `ServicesSchemaGenerator` makes it."""
    from django_services.openapi.generators import ServicesSchemaGenerator

    return ServicesSchemaGenerator().get_schema(request=None, public=True)

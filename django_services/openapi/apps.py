"""The app of the OpenAPI integration: its system checks."""

from __future__ import annotations

from django.apps import AppConfig
from django.core import checks


class OpenAPIConfig(AppConfig):
    name = "django_services.openapi"
    label = "django_services_openapi"
    verbose_name = "django-feathers OpenAPI"

    def ready(self) -> None:
        from .checks import check_spectacular_settings

        checks.register(check_spectacular_settings)

"""
System checks: the drf-spectacular settings the services' schema needs.

* `django_services.W401` - `DEFAULT_GENERATOR_CLASS` is not `ServicesSchemaGenerator`
  (or a subclass): `manage.py spectacular` would leave the services out.
* `django_services.W402` - `OAS_VERSION` is not 3.1.
* `django_services.W403` - Swagger UI or Redoc load from a CDN, not from
  drf-spectacular-sidecar.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Warning
from django.utils.module_loading import import_string

from .conf import GENERATOR_CLASS

__all__ = ["check_spectacular_settings"]


def check_spectacular_settings(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Warn about drf-spectacular settings that leave the services out or use a CDN."""
    from .generators import ServicesSchemaGenerator

    configured = getattr(settings, "SPECTACULAR_SETTINGS", {})
    found = []
    generator = configured.get("DEFAULT_GENERATOR_CLASS")
    generator_class = import_string(generator) if isinstance(generator, str) else generator
    if not (
        isinstance(generator_class, type) and issubclass(generator_class, ServicesSchemaGenerator)
    ):
        found.append(
            Warning(
                "SPECTACULAR_SETTINGS['DEFAULT_GENERATOR_CLASS'] does not describe the services.",
                hint=f"Set it to {GENERATOR_CLASS!r} (see django_services.openapi.conf).",
                id="django_services.W401",
            )
        )
    if not str(configured.get("OAS_VERSION", "3.0.3")).startswith("3.1"):
        found.append(
            Warning(
                "SPECTACULAR_SETTINGS['OAS_VERSION'] is not 3.1.",
                hint="Set it to '3.1.0': the services' schema is written for OpenAPI 3.1.",
                id="django_services.W402",
            )
        )
    if any(configured.get(key) != "SIDECAR" for key in ("SWAGGER_UI_DIST", "REDOC_DIST")):
        found.append(
            Warning(
                "Swagger UI or Redoc are loaded from a CDN.",
                hint="Install drf-spectacular-sidecar and set SWAGGER_UI_DIST, "
                "SWAGGER_UI_FAVICON_HREF and REDOC_DIST to 'SIDECAR'.",
                id="django_services.W403",
            )
        )
    return found

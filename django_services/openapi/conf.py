"""
The drf-spectacular settings a project serving its services' schema starts from.

    from django_services.openapi.conf import SPECTACULAR_DEFAULTS

    SPECTACULAR_SETTINGS = {**SPECTACULAR_DEFAULTS, "TITLE": "Todo API", "VERSION": "1.0.0"}

Plain data, so `settings.py` can import it without loading Django or drf-spectacular.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GENERATOR_CLASS", "SPECTACULAR_DEFAULTS"]

#: The generator that adds every registered service to drf-spectacular's schema.
GENERATOR_CLASS = "django_services.openapi.generators.ServicesSchemaGenerator"

SPECTACULAR_DEFAULTS: dict[str, Any] = {
    # `manage.py spectacular` and the served schema both walk the service registry.
    "DEFAULT_GENERATOR_CLASS": GENERATOR_CLASS,
    "OAS_VERSION": "3.1.0",
    # Records and request bodies are separate components: private (write-only) fields are
    # only in the request bodies, read-only fields only in the records.
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and Redoc from drf-spectacular-sidecar: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_INCLUDE_SCHEMA": False,
}

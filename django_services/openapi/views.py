"""
The views serving the schema, Swagger UI and Redoc.

drf-spectacular's views, with the schema always made by `ServicesSchemaGenerator`, whatever
`DEFAULT_GENERATOR_CLASS` says, so the docs page never misses the services.
"""

from __future__ import annotations

from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from .generators import ServicesSchemaGenerator

__all__ = ["ServicesRedocView", "ServicesSchemaView", "ServicesSwaggerView"]


class ServicesSchemaView(SpectacularAPIView):
    """The OpenAPI schema of the project, services included."""

    generator_class = ServicesSchemaGenerator
    # The docs views are not part of the API they document.
    schema = None


class ServicesSwaggerView(SpectacularSwaggerView):
    """Swagger UI on the schema."""

    schema = None


class ServicesRedocView(SpectacularRedocView):
    """Redoc on the schema, without the Google Fonts drf-spectacular's page loads."""

    schema = None
    template_name = "django_services/openapi/redoc.html"

"""
`ServicesSchemaGenerator`: drf-spectacular's generator, plus every registered service.

    SPECTACULAR_SETTINGS = {
        "DEFAULT_GENERATOR_CLASS": "django_services.openapi.generators.ServicesSchemaGenerator",
        ...
    }

The services are served by one catch-all URL pattern, which drf-spectacular's URL discovery
cannot see through: this generator keeps what drf-spectacular finds in the URLconf (the
project's other DRF views) and adds the operations of each service of the registry, the
Feathers error responses, and `x-feathers-services`, the summary typed clients are written from.

When the schema is not public (drf-spectacular's `SERVE_PUBLIC = False`), it holds only the
operations the permissions of each service grant the user asking for it, as drf-spectacular
does for views.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.generators import SchemaGenerator

from ..server.registry import services
from .components import shared_components
from .operations import ServiceDescriber

__all__ = ["SERVICES_EXTENSION", "ServicesSchemaGenerator"]

#: The top-level key of the service summaries (path -> methods, bodies, query).
SERVICES_EXTENSION = "x-feathers-services"


class ServicesSchemaGenerator(SchemaGenerator):
    """Generate the OpenAPI schema of the project's DRF views and of its services."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.service_summaries: dict[str, dict[str, Any]] = {}

    def parse(self, input_request: Any, public: bool) -> dict[str, Any]:
        """The paths of the URLconf's DRF views, then those of every service."""
        result = super().parse(input_request, public)
        describer = ServiceDescriber(self.registry, input_request, public=public)
        self.service_summaries = {}
        for route in services.routes():
            described = describer.describe(route)
            for path, operations in described.paths.items():
                result.setdefault(path, {}).update(operations)
            self.service_summaries[route.path] = described.service
        return result

    def get_schema(self, request: Any = None, public: bool = False) -> dict[str, Any]:
        """drf-spectacular's schema, with the shared error responses and service summaries."""
        schema = super().get_schema(request, public)
        components = schema.setdefault("components", {})
        for section, entries in shared_components().items():
            components[section] = {**entries, **components.get(section, {})}
            components[section] = dict(sorted(components[section].items()))
        schema[SERVICES_EXTENSION] = self.service_summaries
        return schema

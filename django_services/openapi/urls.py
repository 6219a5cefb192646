"""
The schema and the API docs, to include before the services:

    path("api/", include("django_services.openapi.urls"))

* `schema/` - the OpenAPI schema (YAML; JSON with `?format=json` or `Accept: application/json`)
* `docs/` - Swagger UI
* `redoc/` - Redoc
"""

from __future__ import annotations

from django.urls import path

from .views import ServicesRedocView, ServicesSchemaView, ServicesSwaggerView

app_name = "django_services_openapi"

urlpatterns = [
    path("schema/", ServicesSchemaView.as_view(), name="schema"),
    path(
        "docs/", ServicesSwaggerView.as_view(url_name="django_services_openapi:schema"), name="docs"
    ),
    path(
        "redoc/", ServicesRedocView.as_view(url_name="django_services_openapi:schema"), name="redoc"
    ),
]

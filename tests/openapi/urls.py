"""The schema and docs, then the services, as a project mounts them."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("api/", include("django_services.openapi.urls")),
    path("", include("django_services.urls")),
]

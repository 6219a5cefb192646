"""The three variants side by side, on one server: `/services/`, `/drf/`, `/plain/`."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("plain/", include("bench.people.plain")),
    path("drf/", include("bench.people.drf")),
    path("services/", include("django_services.urls")),
]

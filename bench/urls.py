"""
The three variants side by side, on one server: `/services/`, `/drf/`, `/plain/`; and
`/floor/`, creates that keep only part of DRF (`bench.drf_floor`).
"""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("plain/", include("bench.people.plain")),
    path("drf/", include("bench.people.drf")),
    path("floor/", include("bench.people.floor")),
    path("services/", include("django_services.urls")),
]

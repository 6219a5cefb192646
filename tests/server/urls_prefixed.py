"""A project that mounts the services under `api/`, beside views of its own."""

from django.http import JsonResponse
from django.urls import include, path

urlpatterns = [
    path("other/", lambda request: JsonResponse({"other": True})),
    path("api/", include("django_services.urls")),
]

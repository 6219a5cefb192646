"""URLs of the test project: every service at the root, as most projects mount them."""

from django.urls import include, path

urlpatterns = [
    path("", include("django_services.urls")),
]

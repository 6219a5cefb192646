"""The test project of the remotes tests: two views calling remotes, then every service."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("views/<str:alias>/<str:path>/", views.call_remote),
    path("async-views/<str:alias>/<str:path>/", views.acall_remote),
    path("", include("django_services.urls")),
]

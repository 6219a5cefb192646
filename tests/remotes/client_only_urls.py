"""A project that serves no services and only calls remote ones: its views, no services."""

from django.urls import path

from . import views

urlpatterns = [
    path("views/<str:alias>/<str:path>/", views.call_remote),
]

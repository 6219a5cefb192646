"""
URLs of the example project: the page (and its icon where browsers look for it first), Django's
login and admin, the API docs, then every service.

The services are mounted at the root, as a Feathers server mounts them, so the include comes
last: it answers every other path with Feathers' 404 JSON.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from demo import views

urlpatterns = [
    path("", views.index, name="index"),
    path("favicon.ico", RedirectView.as_view(url=static("demo/favicon.svg"), permanent=True)),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include("django_services.openapi.urls")),
    path("", include("django_services.urls")),
]

"""
The URL of every service, to include last in the project's URLconf.

    urlpatterns = [
        path("admin/", admin.site.urls),
        path("", include("django_services.urls")),      # or path("api/", include(...))
    ]

One pattern takes every path under the mount and hands it to the services router, so paths no
service serves get Feathers' 404 JSON (`Page not found`): put the include after the project's
other patterns, or mount it under a prefix.
"""

from django.urls import re_path

from .server.rest.views import serve

app_name = "django_services"

urlpatterns = [
    # `[\s\S]`, not `.`: a newline (`%0A`) in an id must reach the services router too.
    re_path(r"^(?P<path>[\s\S]*)\Z", serve, name="services"),
]

"""
OpenAPI 3.1 for every service, with drf-spectacular (`pip install "django-feathers[openapi]"`).

    INSTALLED_APPS = [..., "drf_spectacular", "drf_spectacular_sidecar", "django_services.openapi"]
    SPECTACULAR_SETTINGS = {**SPECTACULAR_DEFAULTS, "TITLE": "My API"}   # from .conf

    urlpatterns = [
        path("api/", include("django_services.openapi.urls")),   # schema/, docs/, redoc/
        path("", include("django_services.urls")),
    ]

`manage.py spectacular --file schema.yaml` writes the same schema; `manage.py services_types`
writes TypeScript declarations and Python `TypedDict`s from it. The core of django-feathers
never imports this package.
"""

"""
django-feathers: FeathersJS v5 REST services for Django, and a client to call them.

    INSTALLED_APPS = [..., "rest_framework", "django_services"]
    DJANGO_SERVICES = {"SERVICES": {"todos": "todos.services.TodoService"}}
    urlpatterns = [path("", include("django_services.urls"))]
"""

__version__ = "0.1.0"

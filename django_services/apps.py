from django.apps import AppConfig


class DjangoServicesConfig(AppConfig):
    name = "django_services"
    verbose_name = "Django services"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the system checks

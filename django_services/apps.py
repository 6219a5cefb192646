from django.apps import AppConfig


class DjangoServicesConfig(AppConfig):
    name = "django_services"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Django services"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the system checks
        from .conf import services_settings

        if services_settings.SOCKETIO_REDIS_URL:
            # Events of this process reach the sockets of every socket.io server through Redis.
            from .server.socketio import emitter, revocation

            emitter.install()
            revocation.install()

from django.apps import AppConfig
from django.db.backends.signals import connection_created


class DjangoServicesConfig(AppConfig):
    name = "django_services"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Django services"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the system checks
        from .conf import services_settings
        from .sqlite_locks import install

        # The in-memory SQLite test database: writes wait for table locks as for a file's lock.
        connection_created.connect(install, dispatch_uid="django_services.sqlite_locks")

        if services_settings.SOCKETIO_REDIS_URL:
            # Events of this process reach the sockets of every socket.io server through Redis.
            from .server.socketio import emitter, revocation

            emitter.install()
            revocation.install()

"""
A project made as a newcomer makes one: `django-admin startproject mysite`, `startapp shop`,
two models served as the docs show. Built once per session; each test runs `manage.py` or a
script in it under a settings module of its own (`mysite/settings_<name>.py`, which imports
`mysite/settings.py` and changes what the test is about).

    def test_something(new_project):
        new_project.settings("publisher", 'DJANGO_SERVICES["SOCKETIO_PUBLISHER"] = None')
        result = new_project.manage("check", settings="publisher")
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import django_services

#: Seconds a command may take (Django starts in well under one).
TIMEOUT = 60

#: Where the package under test is imported from: the project imports this copy of it, as a
#: project imports the installed package, whatever copy the environment has installed.
PACKAGE_ROOT = str(Path(django_services.__file__).resolve().parent.parent)

MODELS = """
from django.conf import settings
from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)
    in_stock = models.BooleanField(default=True)


class Order(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE)
    quantity = models.PositiveIntegerField()
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)
"""

SERVICES = """
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated

from django_services.server import ModelService
from django_services.server.socketio import channel

from .models import Order, Product


class ProductSerializer(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["id", "name", "in_stock"]


class OrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Order
        fields = ["id", "product", "quantity", "owner", "created_at"]


class ProductService(ModelService):
    queryset = Product.objects.order_by("id")
    serializer_class = ProductSerializer


class OrderService(ModelService):
    queryset = Order.objects.order_by("id")
    serializer_class = OrderSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return super().get_queryset().filter(owner=self.params.user)

    def publish(self, event):
        return channel(f"users/{event.data['owner']}")
"""

SETTINGS = """

INSTALLED_APPS += [
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_services",
    "django_services.openapi",
    "shop",
]

from django_services.openapi.conf import SPECTACULAR_DEFAULTS  # noqa: E402

SPECTACULAR_SETTINGS = {**SPECTACULAR_DEFAULTS, "TITLE": "Shop API", "VERSION": "1.0.0"}

DJANGO_SERVICES = {
    "SERVICES": {
        "products": "shop.services.ProductService",
        "orders": "shop.services.OrderService",
        "users": "django_services.server.authentication.UserService",
    },
    "AUTHENTICATION": {},
}
"""

URLS = """
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("django_services.openapi.urls")),
    path("", include("django_services.urls")),
]
"""


@dataclass
class NewProject:
    """A startproject project on disk, and ways to run it."""

    root: Path

    def settings(self, name: str, text: str = "") -> str:
        """Write `mysite/settings_<name>.py`: the project's settings, then `text`."""
        body = "from .settings import *  # noqa: F403\n\n" + textwrap.dedent(text)
        (self.root / "mysite" / f"settings_{name}.py").write_text(body, encoding="utf-8")
        return f"mysite.settings_{name}"

    def run(self, *args: str, settings: str = "mysite.settings") -> subprocess.CompletedProcess:
        """Run `python *args` in the project, with `settings` as DJANGO_SETTINGS_MODULE."""
        environment = {**os.environ, **self.environment(settings)}
        return subprocess.run(
            [sys.executable, *args],
            cwd=self.root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    def environment(self, settings: str = "mysite.settings") -> dict[str, str]:
        """The variables a command runs with: the settings, and the package under test."""
        return {"DJANGO_SETTINGS_MODULE": settings, "PYTHONPATH": PACKAGE_ROOT}

    def manage(self, *args: str, settings: str = "mysite.settings") -> subprocess.CompletedProcess:
        """Run `manage.py *args`."""
        return self.run("manage.py", *args, settings=settings)

    def script(self, code: str, settings: str = "mysite.settings") -> subprocess.CompletedProcess:
        """Run Python `code` in the project, after `django.setup()`."""
        prelude = "import django\ndjango.setup()\n"
        return self.run("-c", prelude + textwrap.dedent(code), settings=settings)


def _checked(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"{result.args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="session")
def new_project(tmp_path_factory: pytest.TempPathFactory) -> NewProject:
    """`django-admin startproject mysite` with a `shop` app of two served models, migrated."""
    directory = tmp_path_factory.mktemp("newproject")
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    for command in (["startproject", "mysite", "."], ["startapp", "shop"]):
        _checked(
            subprocess.run(
                [sys.executable, "-m", "django", *command],
                cwd=directory,
                env=environment,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
        )
    (directory / "shop" / "models.py").write_text(MODELS, encoding="utf-8")
    (directory / "shop" / "services.py").write_text(SERVICES, encoding="utf-8")
    (directory / "mysite" / "urls.py").write_text(URLS, encoding="utf-8")
    with (directory / "mysite" / "settings.py").open("a", encoding="utf-8") as settings:
        settings.write(SETTINGS)
    project = NewProject(directory)
    _checked(project.manage("makemigrations", "shop"))
    _checked(project.manage("migrate"))
    return project


#: The project's ASGI application with socket.io, as docs/realtime.md has it.
ASGI = """
from django_services.server.socketio import get_asgi_application

application = get_asgi_application()
"""


@pytest.fixture(scope="session")
def new_project_server(new_project, tmp_path_factory):
    """The new project under uvicorn (REST and socket.io on one port), in a child process."""
    from tests.servers import ProcessServer

    (new_project.root / "mysite" / "asgi_services.py").write_text(ASGI, encoding="utf-8")
    command = [sys.executable, "-m", "uvicorn", "mysite.asgi_services:application"]
    server = ProcessServer(
        "newproject",
        [*command, "--host", "127.0.0.1", "--port", "{port}"],
        cwd=new_project.root,
        log_dir=tmp_path_factory.mktemp("newproject-logs"),
        env=new_project.environment(),
        ready_path="/products",
    )
    with server:
        yield server

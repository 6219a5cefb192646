"""
Smoke test of an installed distribution: run by the Python of a fresh virtualenv into which
the wheel was installed (not editable), from an empty directory.

    python .ci/smoke.py 0.1.0

It checks that the package imported is the installed one, of the version given, then builds
a one-app project around a `ModelService`, runs `manage.py check`, `makemigrations` and
`migrate`, serves it with `runserver`, sends one request over HTTP and makes one call with the
package's client.
"""

from __future__ import annotations

import importlib.metadata
import json
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

DISTRIBUTION = "django-feathers"

FILES = {
    "manage.py": """
        import os
        import sys

        from django.core.management import execute_from_command_line

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
        execute_from_command_line(sys.argv)
    """,
    "settings.py": """
        SECRET_KEY = "a-key-for-the-smoke-test-of-the-built-distribution"
        DEBUG = False
        ALLOWED_HOSTS = ["127.0.0.1"]
        INSTALLED_APPS = [
            "django.contrib.contenttypes",
            "django.contrib.auth",
            "rest_framework",
            "django_services",
            "notes",
        ]
        ROOT_URLCONF = "urls"
        DATABASES = {
            "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "smoke.sqlite3"}
        }
        DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
        USE_TZ = True
        DJANGO_SERVICES = {"SERVICES": {"notes": "notes.services.NoteService"}}
    """,
    "urls.py": """
        from django.urls import include, path

        urlpatterns = [path("", include("django_services.urls"))]
    """,
    "notes/__init__.py": "",
    "notes/models.py": """
        from django.db import models


        class Note(models.Model):
            text = models.CharField(max_length=100)
    """,
    "notes/services.py": """
        from rest_framework import serializers

        from django_services.server import ModelService

        from .models import Note


        class NoteSerializer(serializers.ModelSerializer):
            class Meta:
                model = Note
                fields = ["id", "text"]


        class NoteService(ModelService):
            queryset = Note.objects.order_by("id")
            serializer_class = NoteSerializer
            paginate = {"default": 10, "max": 50}
    """,
}


def main(version: str) -> None:
    import django_services

    installed = Path(django_services.__file__).resolve()
    assert "site-packages" in installed.parts, f"imported from {installed}, not the install"
    assert django_services.__version__ == version, django_services.__version__
    assert importlib.metadata.version(DISTRIBUTION) == version

    for name, text in FILES.items():
        path = Path(name)
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    for command in (["check"], ["makemigrations", "notes"], ["migrate", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command], check=True)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    )
    try:
        wait_for(url)
        created = post_json(f"{url}/notes", {"text": "from the wheel"})
        assert created == {"id": 1, "text": "from the wheel"}, created

        import requests

        from django_services.client import App, errors, rest_client

        with requests.Session() as session:
            app = App().configure(rest_client(url).requests(session))
            page = app.service("notes").find(query={"text": "from the wheel"})
            assert page == {"total": 1, "limit": 10, "skip": 0, "data": [created]}, page
            try:
                app.service("notes").get(2)
            except errors.NotFound as error:
                assert error.message == "No record found for id '2'", error.message
            else:
                raise AssertionError("get(2) did not raise NotFound")
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{DISTRIBUTION} {version} from {installed.parent}: check, request and call passed")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def post_json(url: str, data: object) -> object:
    request = urllib.request.Request(
        url,
        data=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
        return json.load(response)


if __name__ == "__main__":
    main(sys.argv[1])

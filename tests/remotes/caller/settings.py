"""
Settings of the caller project. The environment gives the remote's `BASE_URL`
(`CALLER_REMOTE_URL`), its connection kind (`CALLER_REMOTE_CONNECTION`) and the service
account's password (`DJANGO_SERVICES_TEST_REMOTE_PASSWORD`).
"""

from __future__ import annotations

import os

SECRET_KEY = "the-caller-project-of-the-remotes-tests-is-never-deployed"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "django_services",
]
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "tests.remotes.caller.urls"
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True
# Each process keeps its own token: the lock, not a shared cache, is what is measured.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DJANGO_SERVICES = {
    "REMOTES": {
        "login": {
            "BASE_URL": os.environ["CALLER_REMOTE_URL"],
            "CONNECTION": os.environ["CALLER_REMOTE_CONNECTION"],
            "AUTH": {
                "STRATEGY": "local",
                "CREDENTIALS": {"email": "robot@example.com"},
                "CREDENTIALS_ENV": {"password": "DJANGO_SERVICES_TEST_REMOTE_PASSWORD"},
            },
        },
    },
}

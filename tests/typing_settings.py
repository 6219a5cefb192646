"""The Django settings mypy's Django plugin loads (`[tool.django-stubs]` in pyproject.toml)."""

SECRET_KEY = "settings-for-type-checking-only"
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "django_services",
]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

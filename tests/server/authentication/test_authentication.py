"""The package surface: what it exports, and that the DRF classes load without the server."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import django_services.server.authentication as authentication


def test_all_is_sorted_and_every_name_resolves():
    assert authentication.__all__ == sorted(authentication.__all__)
    for name in authentication.__all__:
        assert getattr(authentication, name) is not None, name


def test_the_authentication_classes_load_without_the_service_classes():
    script = textwrap.dedent(
        """
        import sys
        import django
        from django.conf import settings

        settings.configure(
            INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth"],
            DATABASES={},
        )
        django.setup()
        from django_services.server.authentication import JWTAuthentication, SessionAuthentication

        loaded = sorted(
            name for name in sys.modules
            if name.startswith("django_services.server.") and ".authentication" not in name
        )
        print(loaded)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]", result.stdout

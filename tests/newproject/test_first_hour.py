"""
A newcomer's first hour, in a project made by `django-admin startproject`: the setups the docs
show work as shown, and a misconfiguration is named by `manage.py check`.
"""

from __future__ import annotations

import json

import pytest

from tests.docs.test_docs import page, titled_block

STATIC_PAGE = "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"


@pytest.mark.parametrize("name", ["realtime.md", "openapi.md"])
def test_the_api_docs_load_their_scripts_under_the_documented_asgi_application(new_project, name):
    asgi = titled_block(page(name), "mysite/asgi.py").text
    module = f"asgi_{name.removesuffix('.md')}"
    (new_project.root / "mysite" / f"{module}.py").write_text(asgi, encoding="utf-8")
    result = new_project.script(
        f"""
        import asyncio, json, httpx
        from mysite.{module} import application

        async def main():
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
                docs = await c.get("/api/docs/")
                script = await c.get({STATIC_PAGE!r})
            print(json.dumps([docs.status_code, script.status_code, script.text[:40]]))

        asyncio.run(main())
        """
    )
    assert result.returncode == 0, result.stderr
    docs, script, start = json.loads(result.stdout.splitlines()[-1])
    assert (docs, script) == (200, 200)
    assert not start.startswith("{")  # the script, not a Feathers 404


def test_a_fresh_project_checks_clean_without_deployment_warnings(new_project):
    result = new_project.manage("check")

    assert result.returncode == 0, result.stderr
    assert "W301" not in result.stdout + result.stderr
    deploy = new_project.manage("check", "--deploy")
    assert "django_services.W301" in deploy.stdout + deploy.stderr


def test_a_service_that_publishes_without_a_publisher_is_named(new_project):
    result = new_project.manage("check")
    output = result.stdout + result.stderr

    assert "django_services.W012" in output
    assert "SOCKETIO_PUBLISHER" in output and "'orders'" in output
    settings = new_project.settings(
        "publisher",
        'DJANGO_SERVICES["SOCKETIO_PUBLISHER"] = "django_services.server.socketio.Publisher"',
    )
    assert "W012" not in new_project.manage("check", settings=settings).stderr


def test_a_publisher_that_does_not_import_is_an_error(new_project):
    settings = new_project.settings(
        "bad_publisher", 'DJANGO_SERVICES["SOCKETIO_PUBLISHER"] = "shop.realtime.Publisher"'
    )
    result = new_project.manage("check", settings=settings)

    assert result.returncode != 0
    assert "django_services.E011" in result.stderr
    assert "SOCKETIO_PUBLISHER" in result.stderr and "shop.realtime.Publisher" in result.stderr


LOGIN = """
    import json
    from django.contrib.auth.models import User
    from django.test import Client

    User.objects.filter(username="ann").delete()
    User.objects.create_user("ann", "ann@example.com", "a-long-password")
    client = Client(HTTP_HOST="localhost")
    answers = [
        client.post("/authentication", body, content_type="application/json").status_code
        for body in (
            {"strategy": "local", "username": "ann", "password": "a-long-password"},
            {"strategy": "local", "email": "ann@example.com", "password": "a-long-password"},
        )
    ]
    print(json.dumps(answers))
"""


def test_logins_use_the_login_field_of_djangos_user_or_feathers_email(new_project):
    result = new_project.script(LOGIN)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == [201, 201]


def test_a_login_field_the_user_model_does_not_log_in_by_is_named(new_project):
    settings = new_project.settings(
        "email_login",
        'DJANGO_SERVICES["AUTHENTICATION"] = {"LOCAL": {"USERNAME_FIELD": "email"}}',
    )
    result = new_project.manage("check", settings=settings)

    assert "django_services.W110" in result.stderr
    assert "'email'" in result.stderr and "'username'" in result.stderr


def test_the_asgi_application_refuses_to_start_with_a_publisher_that_does_not_import(
    new_project,
):
    settings = new_project.settings(
        "asgi_bad_publisher", 'DJANGO_SERVICES["SOCKETIO_PUBLISHER"] = "shop.realtime.Publisher"'
    )
    result = new_project.script(
        """
        from django_services.server.socketio import get_asgi_application
        get_asgi_application()
        """,
        settings=settings,
    )

    assert result.returncode != 0
    assert "ImproperlyConfigured: django_services.E011" in result.stderr
    assert "['SOCKETIO_PUBLISHER']" in result.stderr

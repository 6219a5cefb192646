"""
The REST view of a service: composed from the service class, with the DRF policies of
services read from DJANGO_SERVICES when a request comes, not at import.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework import authentication
from rest_framework.renderers import BaseRenderer

from django_services.server import Service
from django_services.server.authentication import create_access_token
from django_services.server.rest.renderers import JSONRenderer
from django_services.server.rest.views import ServiceView, service_view, view_class
from tests.server.http import S, assert_error, body, send

pytestmark = pytest.mark.django_db

SECRET = "a-test-secret-for-the-server-tests-that-is-long-enough-for-hs512-0123456789"


@pytest.fixture(autouse=True)
def wire(serve):
    serve(
        {"protected": S + "DefaultAuthenticationService", "public": S + "PublicDefaultService"},
        AUTHENTICATION={"SECRET": SECRET},
    )


@pytest.fixture
def user():
    from tests.testapp.models import User

    return User.objects.create_user(email="ada@example.com", password="pw")


def test_missing_credentials_are_401_with_the_jwt_challenge(api):
    response = api.get("/protected")
    assert_error(
        response,
        "NotAuthenticated",
        "Not authenticated",
        401,
        "not-authenticated",
    )
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_bearer_token_authenticates(api, user):
    token = create_access_token(str(user.pk))
    answer = body(api.get("/protected", HTTP_AUTHORIZATION=f"Bearer {token}"))
    assert answer["user"] == "ada@example.com"
    assert answer["authentication"]["strategy"] == "jwt"
    assert answer["authentication"]["accessToken"] == token


def test_invalid_token_is_401(api, user):
    response = api.get("/protected", HTTP_AUTHORIZATION="Bearer not.a.token")
    assert response.status_code == 401
    assert body(response)["name"] == "NotAuthenticated"
    # Public services refuse a bad token too: credentials given must be valid.
    assert api.get("/public", HTTP_AUTHORIZATION="Bearer not.a.token").status_code == 401
    assert body(api.get("/public")) == {"user": None}


def test_session_authenticates_with_csrf_on_unsafe_methods(user):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert body(client.get("/protected"))["user"] == "ada@example.com"
    response = send(client, "POST", "/protected", {})
    assert response.status_code == 403
    assert body(response)["name"] == "Forbidden"


def test_default_classes_come_from_settings_at_request_time(api, user, serve):
    serve(
        {"protected": S + "DefaultAuthenticationService"},
        DEFAULT_AUTHENTICATION_CLASSES=["rest_framework.authentication.BasicAuthentication"],
    )
    response = api.get("/protected")
    assert response["WWW-Authenticate"] == 'Basic realm="api"'
    api.credentials(HTTP_AUTHORIZATION="Basic YWRhQGV4YW1wbGUuY29tOnB3")  # ada@example.com:pw
    assert body(api.get("/protected"))["user"] == "ada@example.com"


def test_default_permissions_come_from_settings(api, serve):
    serve(
        {"public": S + "PublicDefaultService"},
        DEFAULT_PERMISSION_CLASSES=["rest_framework.permissions.IsAuthenticated"],
    )
    assert api.get("/public").status_code == 401


def test_rest_framework_defaults_do_not_apply_to_services(api, settings):
    settings.REST_FRAMEWORK = {
        "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.BasicAuthentication"],
        "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAdminUser"],
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.BrowsableAPIRenderer"],
    }
    response = api.get("/public")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"


def test_rest_framework_throttles_are_read_at_request_time(api, settings):
    settings.REST_FRAMEWORK = {
        "DEFAULT_THROTTLE_CLASSES": ["tests.server.echo_services.OneRequestPerMinute"],
    }
    assert api.get("/public").status_code == 200
    response = api.get("/public")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0


def test_unimportable_default_class_names_the_setting(api, serve):
    serve({"public": S + "PublicDefaultService"}, DEFAULT_PERMISSION_CLASSES=["nope.Nope"])
    with pytest.raises(ImproperlyConfigured, match=r"DEFAULT_PERMISSION_CLASSES'\]\[0\]"):
        api.get("/public")


def test_a_service_may_set_its_own_classes():
    from tests.server.echo_services import ParamsService

    assert ParamsService.authentication_classes == [authentication.SessionAuthentication]


class TextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return f"{data['text']}!".encode()


class ShoutService(Service):
    renderer_classes = [JSONRenderer, TextRenderer]

    def get(self, id, params):
        return {"text": id}


def test_the_rest_view_is_composed_once_from_the_service_class():
    from tests.server.echo_services import EchoService

    view = view_class(EchoService)
    assert view is view_class(EchoService)
    assert issubclass(view, EchoService) and issubclass(view, ServiceView)
    assert not issubclass(EchoService, ServiceView)
    assert view.__name__ == EchoService.__name__ and view.__doc__ == EchoService.__doc__


def test_rest_policies_a_service_sets_are_kept_and_those_it_leaves_are_rests(api, serve):
    serve({"shout": ShoutService, "public": S + "PublicDefaultService"})

    plain = api.get("/shout/hey", HTTP_ACCEPT="text/plain")
    assert (plain["Content-Type"], plain.content) == ("text/plain; charset=utf-8", b"hey!")
    assert body(api.get("/shout/hey")) == {"text": "hey"}
    assert api.get("/public")["Content-Type"] == "application/json; charset=utf-8"
    assert ShoutService.parser_classes is None  # the class itself is left as declared


def test_a_service_view_refuses_unknown_options():
    from tests.server.echo_services import EchoService

    with pytest.raises(TypeError, match="has no option 'pagesize'"):
        service_view(EchoService, pagesize=3)
    with pytest.raises(ImproperlyConfigured, match="does not implement"):
        service_view(EchoService, methods=["find", "fly"])

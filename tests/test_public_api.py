"""The public surface: what each package exports is deliberate, sorted and importable."""

import importlib

import pytest

PACKAGES = [
    "django_services.contract",
    "django_services.errors",
    "django_services.query.codec",
    "django_services.server",
    "django_services.server.authentication",
    "django_services.client",
]


def isort_style(name):
    """Constants, then classes, then functions: the order ruff keeps `__all__` in."""
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


@pytest.mark.parametrize("module_name", PACKAGES)
def test_all_is_sorted_and_every_name_resolves(module_name):
    module = importlib.import_module(module_name)
    names = module.__all__
    assert names == sorted(names, key=isort_style)
    assert len(set(names)) == len(names)
    for name in names:
        assert getattr(module, name) is not None, name


def test_client_objects_show_their_public_path():
    from django_services import client

    assert client.App.__module__ == "django_services.client"
    assert client.rest_client.__module__ == "django_services.client"
    assert repr(client.App).startswith("<class 'django_services.client.App'")


def test_client_errors_are_the_server_errors():
    from django_services import errors
    from django_services.client import errors as client_errors

    assert client_errors is errors


#: The client packages' names, exactly: a name added or dropped is a decision made here.
CLIENT_EXPORTS = {
    "django_services.client": [
        "DEFAULT_TIMEOUT",
        "App",
        "AsyncAuthenticationClient",
        "AsyncConnection",
        "AsyncRestService",
        "AuthenticationClient",
        "BaseAuthenticationClient",
        "BaseConnection",
        "BaseRestService",
        "CacheStorage",
        "Connection",
        "MemoryStorage",
        "RestClient",
        "RestService",
        "Retries",
        "SessionStorage",
        "Storage",
        "TimeoutConfig",
        "authentication_client",
        "errors",
        "rest_client",
        "socketio_client",
    ],
    "django_services.client.connections": [
        "BUILT_IN",
        "AsyncConnection",
        "BaseConnection",
        "Connection",
        "Request",
        "Response",
        "TransportFailure",
        "load",
        "missing_library",
    ],
    "django_services.client.bridges": [
        "BRIDGES",
        "Acquire",
        "Bridge",
        "CacheGet",
        "CacheSet",
        "Flow",
        "ForwardBearer",
        "ForwardSession",
        "Login",
        "Release",
        "SessionCredentials",
        "StaticToken",
        "TokenHeader",
        "arun_flow",
        "run_flow",
        "token_expiry",
    ],
}


@pytest.mark.parametrize("module_name", sorted(CLIENT_EXPORTS))
def test_the_client_packages_export_exactly_their_names(module_name):
    module = importlib.import_module(module_name)
    assert module.__all__ == CLIENT_EXPORTS[module_name]
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError):
        module.Transport  # noqa: B018 (a former name is gone, not deprecated)

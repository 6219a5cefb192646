"""The public surface: what each package exports is deliberate, sorted and importable."""

import importlib

import pytest

#: What each public package exports, named: a change to a public surface is a change here.
EXPORTS = {
    "django_services.clock": {
        "Alarm",
        "Clock",
        "ManualClock",
        "SystemClock",
        "alarm",
        "current",
        "monotonic",
        "now",
        "replaced",
        "time",
    },
    "django_services.contract": {
        "CUSTOM_METHOD_ARGUMENTS",
        "CUSTOM_METHOD_VERB",
        "EVENTS",
        "HTTP_VERBS",
        "METHOD_ARGUMENTS",
        "METHODS_REQUIRING_ID",
        "METHODS_WITH_BODY",
        "METHODS_WITH_ID",
        "MULTI_METHODS",
        "RETRY_AFTER_HEADER",
        "SERVICE_METHOD_HEADER",
        "STANDARD_METHODS",
        "WWW_AUTHENTICATE_HEADER",
        "method_arguments",
    },
    "django_services.errors": {
        "BadGateway",
        "BadRequest",
        "Conflict",
        "FeathersError",
        "Forbidden",
        "GeneralError",
        "Gone",
        "LengthRequired",
        "MethodNotAllowed",
        "NotAcceptable",
        "NotAuthenticated",
        "NotFound",
        "NotImplemented",
        "NotModified",
        "PaymentError",
        "PreconditionFailed",
        "PreconditionRequired",
        "Timeout",
        "TooManyRequests",
        "Unavailable",
        "Unprocessable",
        "convert",
        "errors",
        "from_json",
    },
    "django_services.query": {
        "FILTERS",
        "OPERATORS",
        "OPTIONAL_OPERATORS",
        "And",
        "Comparison",
        "Condition",
        "FeathersQuery",
        "FunctionOperator",
        "ILike",
        "Like",
        "LookupOperator",
        "Operator",
        "OperatorRegistry",
        "Or",
        "Paginate",
        "QueryField",
        "QueryLimits",
        "apply_filters",
        "apply_select",
        "codec",
        "fetch_page",
        "find",
        "model_query_fields",
        "operators",
        "parse_query",
        "register_operator",
        "to_q",
    },
    "django_services.query.codec": {
        "MAX_DEPTH",
        "MAX_LIST_ITEMS",
        "MAX_PARAMETERS",
        "parse",
        "stringify",
    },
    "django_services.server": {
        "CallContext",
        "FeathersPagination",
        "FeathersQueryFilter",
        "ModelService",
        "Params",
        "QueryDeclaration",
        "Service",
        "ServiceEvent",
        "event_bus",
        "exception_handler",
        "get_service",
        "register",
        "run_call",
        "run_call_async",
        "service_method",
        "unregister",
    },
    "django_services.server.authentication": {
        "AuthenticationRateThrottle",
        "AuthenticationResult",
        "AuthenticationService",
        "BaseStrategy",
        "JWTAuthentication",
        "JWTStrategy",
        "LocalStrategy",
        "NotAuthenticated",
        "SessionAuthentication",
        "SessionStrategy",
        "UserService",
        "create_access_token",
        "get_access_token",
        "verify_access_token",
    },
    "django_services.client": {
        "DEFAULT_TIMEOUT",
        "App",
        "AsyncAuthenticationClient",
        "AsyncTransport",
        "AsyncRestService",
        "AuthenticationClient",
        "BaseAuthenticationClient",
        "BaseTransport",
        "BaseRestService",
        "CacheStorage",
        "Transport",
        "MemoryStorage",
        "RestClient",
        "RestService",
        "Retries",
        "SessionStorage",
        "Storage",
        "TimeoutConfig",
        "authentication_client",
        "errors",
        "etag_of",
        "rest",
        "rest_client",
        "socketio_client",
    },
    "django_services.client.transports": {
        "BUILT_IN",
        "AsyncTransport",
        "BaseTransport",
        "Transport",
        "Request",
        "Response",
        "SocketAck",
        "SocketCall",
        "TransportFailure",
        "load",
        "missing_library",
    },
    "django_services.client.bridges": {
        "BRIDGES",
        "Acquire",
        "Bridge",
        "CacheGet",
        "CacheSet",
        "Flow",
        "ForwardBearer",
        "ForwardSession",
        "Login",
        "Now",
        "Release",
        "SessionCredentials",
        "StaticToken",
        "TokenHeader",
        "call_flow",
        "token_expiry",
    },
    "django_services.testing": {
        "ASYNC_IN_PROCESS",
        "IN_PROCESS",
        "AsyncInProcessTransport",
        "InProcessTransport",
        "in_process_remote",
        "in_process_remotes",
    },
}
PACKAGES = list(EXPORTS)


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


@pytest.mark.parametrize("module_name", PACKAGES)
def test_each_package_exports_exactly_its_public_names(module_name):
    module = importlib.import_module(module_name)

    assert set(module.__all__) == EXPORTS[module_name]


def test_the_event_subscribers_receive_is_exported_beside_the_bus():
    from django_services import server
    from django_services.server.pipeline.events import ServiceEvent

    assert server.ServiceEvent is ServiceEvent
    assert "schedule_events" not in server.__all__


def test_client_objects_show_their_public_path():
    from django_services import client

    assert client.App.__module__ == "django_services.client"
    assert client.rest_client.__module__ == "django_services.client"
    assert repr(client.App).startswith("<class 'django_services.client.App'")


def test_client_errors_are_the_server_errors():
    from django_services import errors
    from django_services.client import errors as client_errors

    assert client_errors is errors


@pytest.mark.parametrize(
    ("module_name", "former"),
    [
        ("django_services.client", "Connection"),
        ("django_services.client", "AsyncConnection"),
        ("django_services.client", "BaseConnection"),
        ("django_services.client", "ConnectionKind"),
        ("django_services.testing", "InProcessConnection"),
        ("django_services.testing", "AsyncInProcessConnection"),
        ("django_services.testing", "InProcessKind"),
        ("django_services.testing", "AsyncInProcessKind"),
    ],
)
def test_the_former_client_names_are_gone(module_name, former):
    module = importlib.import_module(module_name)

    assert not hasattr(module, former)


def test_the_client_layer_is_called_transports():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("django_services.client.connections")

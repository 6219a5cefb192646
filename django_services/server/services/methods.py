"""
Service methods: the six standard ones, custom ones, and the options that name them.

    class MessageService(Service):
        def find(self, params): ...

        @service_method(name="markRead")
        def mark_read(self, data, params):      # POST /messages + X-Service-Method: markRead
            ...

The methods a service exposes are the standard ones it implements plus those declared with
`@service_method` (or exactly the names of its `methods` option). Anything else is answered
405, with Feathers' messages (the REST adapter maps a request to its method, `rest.views`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from django.core.exceptions import ImproperlyConfigured

from ...contract import MULTI_METHODS, STANDARD_METHODS
from ..pipeline.hooks import app_hooks

__all__ = [
    "STANDARD_METHODS",
    "check_options",
    "custom_methods",
    "service_method",
]

#: The names a custom method cannot take: every public name of a service class (besides the
#: six methods), which the request lifecycle, the pipeline or a project reads on the service.
#: A test holds it to `Service` and `ModelService` with the supported DRF versions.
RESERVED_NAMES: frozenset[str] = frozenset(
    (
        # Django's View.
        "as_view", "dispatch", "http_method_names", "http_method_not_allowed", "options",
        "setup", "view_is_async",
        # DRF's APIView.
        "allowed_methods", "authentication_classes", "check_object_permissions",
        "check_permissions", "check_throttles", "content_negotiation_class",
        "default_response_headers", "determine_version", "finalize_response",
        "get_authenticate_header", "get_authenticators", "get_content_negotiator",
        "get_exception_handler", "get_exception_handler_context", "get_format_suffix",
        "get_parser_context", "get_parsers", "get_permissions", "get_renderer_context",
        "get_renderers", "get_throttles", "get_view_description", "get_view_name",
        "handle_exception", "initial", "initialize_request", "metadata_class",
        "parser_classes", "perform_authentication", "perform_content_negotiation",
        "permission_classes", "permission_denied", "raise_uncaught_exception",
        "renderer_classes", "schema", "settings", "throttle_classes", "throttled",
        "versioning_class",
        # DRF's GenericAPIView and ViewSetMixin.
        "filter_backends", "filter_queryset", "get_extra_action_url_map", "get_extra_actions",
        "get_object", "get_paginated_response", "get_queryset", "get_serializer",
        "get_serializer_class", "get_serializer_context", "lookup_field", "lookup_url_kwarg",
        "paginate_queryset", "pagination_class", "paginator", "queryset", "reverse_action",
        "serializer_class",
        # Ours: the call in progress, the options and hooks of `BaseService` and
        # `ModelService`, and the write hooks.
        "action", "call", "kwargs", "params", "request", "emit", "off", "on", "events", "hooks",
        "methods", "multi", "path", "get_methods", "get_instance",
        "get_matching_queryset", "get_query_declaration", "perform_create", "perform_destroy",
        "perform_update", "query_class", "represent", "representation_class",
        "format_kwarg", "headers", "response", "args",
    )
)  # fmt: skip

F = TypeVar("F", bound=Callable[..., Any])

_MARKER = "_feathers_service_method"


@overload
def service_method(func: F, /) -> F: ...


@overload
def service_method(*, name: str | None = None) -> Callable[[F], F]: ...


def service_method(func: F | None = None, /, *, name: str | None = None) -> Any:
    """
    Declare a custom service method, reachable by `POST` with `X-Service-Method: <name>`.

    The method is called as `method(data, params)` and its result is sent with status 200
    (204 when it returns `None`). The name on the wire is the method's own name, or `name`,
    so Python code can stay snake_case while clients call the Feathers-style name:

        @service_method(name="markAllComplete")
        def mark_all_complete(self, data, params): ...
    """

    def declare(method: F) -> F:
        wire_name = method.__name__ if name is None else name
        if not isinstance(wire_name, str) or not wire_name:
            raise TypeError("@service_method(name=...) must be a non-empty string.")
        setattr(method, _MARKER, wire_name)
        return method

    return declare if func is None else declare(func)


def custom_methods(cls: type) -> dict[str, str]:
    """
    The methods of `cls` declared with `@service_method`: wire name -> attribute name.

    Sorted by wire name; two methods declared under one wire name are a TypeError.
    """
    found: dict[str, str] = {}
    for attribute in dir(cls):
        wire_name = getattr(getattr(cls, attribute, None), _MARKER, None)
        if not isinstance(wire_name, str):
            continue
        if wire_name in found:
            raise TypeError(
                f"{cls.__name__}: {found[wire_name]!r} and {attribute!r} are both declared as "
                f"the custom method {wire_name!r}."
            )
        found[wire_name] = attribute
    return dict(sorted(found.items()))


def check_options(service: Any) -> None:
    """
    Raise ImproperlyConfigured when an option of `service` that names methods or events
    (`methods`, `multi`, `hooks`, `events`) has a value that cannot work.
    """
    name = type(service).__name__
    available = set(service._implemented_methods())
    if service.methods is not None:
        unknown = [method for method in service.methods if method not in available]
        if unknown:
            raise ImproperlyConfigured(
                f"{name}.methods lists {', '.join(map(repr, unknown))}, "
                "which the service does not implement. Available: "
                f"{', '.join(sorted(available)) or 'none'}."
            )
    multi = service.multi
    if multi is not None and not isinstance(multi, bool):
        wrong = [method for method in multi if method not in MULTI_METHODS]
        if isinstance(multi, str) or wrong:
            raise ImproperlyConfigured(
                f"{name}.multi must be True, False or a list of "
                f"{', '.join(map(repr, MULTI_METHODS))}; got {multi!r}."
            )
    app_hooks()
    for by_method in service._get_hooks().values():
        unknown = sorted(set(by_method) - available - {"all"})
        if unknown:
            raise ImproperlyConfigured(
                f"{name}.hooks names {', '.join(map(repr, unknown))}, which the service "
                f"does not implement. Available: {', '.join(sorted(available)) or 'none'}."
            )
    events = service.events
    if isinstance(events, str) or not all(isinstance(event, str) for event in events):
        raise ImproperlyConfigured(f"{name}.events must be a list of event names.")

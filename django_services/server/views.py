"""
`ServiceMixin`: the DRF machinery shared by `Service` and `ModelService`.

    class Echo(ServiceMixin, APIView):     # what `Service` is
        def get(self, id, params):
            return {"id": id}

    view = Echo.as_view()                  # view(request, id="1", route={})

A request runs through DRF's lifecycle (`initialize_request`, `initial` with authentication,
permissions and throttles, `handle_exception`, `finalize_response`), with one handler: the
Feathers service method resolved from the verb, the id and `X-Service-Method`. The policies
below are set for services, whatever `REST_FRAMEWORK` says for the project's other views;
each is a class attribute a service may set, read through DRF's `get_*` hook:

* authentication: `DJANGO_SERVICES["DEFAULT_AUTHENTICATION_CLASSES"]` (JWT, then session);
* permissions: `DJANGO_SERVICES["DEFAULT_PERMISSION_CLASSES"]` (AllowAny);
* throttles: `REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]`, read when the request comes;
* errors: `DJANGO_SERVICES["EXCEPTION_HANDLER"]` (the Feathers error JSON);
* bodies: `JSONParser`; output: `JSONRenderer`; negotiation: `ServiceContentNegotiation`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from ..conf import import_from_string, services_settings
from ..errors import BadRequest, MethodNotAllowed
from ..query import codec
from .methods import (
    STANDARD_METHODS,
    check_method_allowed,
    custom_methods,
    http_methods_for,
    resolve_method,
)
from .negotiation import ServiceContentNegotiation
from .params import Params
from .parsers import JSONParser, read_chunked_body
from .renderers import JSONRenderer

__all__ = ["ServiceMixin"]

#: Methods that may receive several records at once when `multi` allows it.
MULTI_METHODS = ("create", "patch", "remove")

#: Sent with 401 answers when no authentication class offers a challenge of its own.
DEFAULT_AUTHENTICATE_HEADER = 'Bearer realm="api"'

_MACHINERY_PACKAGES = ("rest_framework", "django")


class ServiceMixin:
    """
    Serve a Feathers service through DRF. Combine with `APIView` or `GenericViewSet`.

    **Options** (class attributes, or keyword arguments of `register()` and `as_view()`):

    * **methods** - the methods exposed over HTTP; `None` (default): every standard method
      the class implements, plus those declared with `@service_method`.
    * **multi** - `True`, `False` or a list of `"create"`, `"patch"`, `"remove"`: which
      methods accept several records (an array body, or no id). `None`:
      `DJANGO_SERVICES["MULTI"]`.

    **State of the call in progress:** `action` (the service method name), `path_id` (the id
    from the path, percent-decoded, or None), `route` (the `:placeholder` values), `params`.
    """

    methods: Collection[str] | None = None
    multi: bool | Collection[str] | None = None
    #: The path the service is registered at (`"users/:userId/notes"`); set by the registry.
    path: str | None = None

    authentication_classes: Any = None
    permission_classes: Any = None
    throttle_classes: Any = None
    parser_classes: Any = [JSONParser]
    renderer_classes: Any = [JSONRenderer]
    content_negotiation_class: Any = ServiceContentNegotiation

    request: Any = None
    format_kwarg: Any = None
    action: str | None = None
    path_id: str | None = None
    route: dict[str, str] = {}
    params: Params | None = None

    #: Custom methods: wire name -> attribute name.
    _custom_methods: dict[str, str] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = custom_methods(cls)
        for name, attribute in declared.items():
            if name in STANDARD_METHODS:
                raise TypeError(
                    f"{cls.__name__}.{attribute}: @service_method is for custom methods; "
                    f"{name!r} is a standard method, exposed when implemented."
                )
            if (
                name.startswith("_")
                or attribute.startswith("_")
                or _is_machinery_name(cls, attribute)
            ):
                raise TypeError(
                    f"{cls.__name__}.{attribute}: {attribute!r} cannot be a custom method name, "
                    "it is used by the service machinery (Django, DRF or django-services)."
                )
        cls._custom_methods = declared

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Callable[..., HttpResponseBase]:
        """
        Return the Django view of the service, with its options set from `initkwargs`.

        The view is called as `view(request, id=None, route=None)` by the services router.
        """
        for key in initkwargs:
            if key.startswith("_") or not hasattr(cls, key):
                raise TypeError(
                    f"{cls.__name__} has no option {key!r}: options are attributes of the "
                    "service class."
                )
        cls(**initkwargs).validate_options()

        def view(
            request: HttpRequest, id: str | None = None, route: dict[str, str] | None = None
        ) -> HttpResponseBase:
            self = cls(**initkwargs)
            self.path_id = id
            self.route = dict(route or {})
            return self.dispatch(request, **self.route)

        view.cls = cls  # type: ignore[attr-defined]
        view.initkwargs = initkwargs  # type: ignore[attr-defined]
        # Authentication classes enforce CSRF themselves (session), as DRF views do.
        return csrf_exempt(view)

    def validate_options(self) -> None:
        """Raise ImproperlyConfigured when an option has a value that cannot work."""
        if self.methods is not None:
            available = set(self.implemented_methods())
            unknown = [name for name in self.methods if name not in available]
            if unknown:
                raise ImproperlyConfigured(
                    f"{type(self).__name__}.methods lists {', '.join(map(repr, unknown))}, "
                    "which the service does not implement. Available: "
                    f"{', '.join(sorted(available)) or 'none'}."
                )
        multi = self.multi
        if multi is not None and not isinstance(multi, bool):
            wrong = [name for name in multi if name not in MULTI_METHODS]
            if isinstance(multi, str) or wrong:
                raise ImproperlyConfigured(
                    f"{type(self).__name__}.multi must be True, False or a list of "
                    f"{', '.join(map(repr, MULTI_METHODS))}; got {multi!r}."
                )

    # Methods ------------------------------------------------------------------------------

    def implemented_methods(self) -> tuple[str, ...]:
        """The standard methods the class implements and its `@service_method`s."""
        cls = type(self)
        standard = tuple(name for name in STANDARD_METHODS if callable(getattr(cls, name, None)))
        return standard + tuple(cls._custom_methods)

    def get_methods(self) -> frozenset[str]:
        """The method names reachable over HTTP (the `methods` option, or all implemented)."""
        if self.methods is not None:
            return frozenset(self.methods)
        return frozenset(self.implemented_methods())

    @property
    def allowed_methods(self) -> list[str]:
        """The HTTP verbs of the exposed methods (DRF's `Allow` header)."""
        return list(_http_methods(self.get_methods()))

    def get_multi(self) -> bool | Collection[str]:
        """The `multi` option, or `DJANGO_SERVICES["MULTI"]` when not set."""
        return services_settings.MULTI if self.multi is None else self.multi

    def allows_multi(self, method: str) -> bool:
        """Whether `method` may work on several records at once."""
        multi = self.get_multi()
        if isinstance(multi, bool):
            return multi
        return method in multi

    def check_multi(self, method: str) -> None:
        """Raise 405 `Can not <method> multiple entries` unless `multi` allows it."""
        if not self.allows_multi(method):
            raise MethodNotAllowed(f"Can not {method} multiple entries")

    # DRF policies, read when a request comes ------------------------------------------------

    def get_authenticators(self) -> list[Any]:
        """Instantiate the authentication classes (DJANGO_SERVICES defaults when not set)."""
        classes = self.authentication_classes
        if classes is None:
            classes = _setting_classes("DEFAULT_AUTHENTICATION_CLASSES")
        return [cls() for cls in classes]

    def get_permissions(self) -> list[Any]:
        """Instantiate the permission classes (DJANGO_SERVICES defaults when not set)."""
        classes = self.permission_classes
        if classes is None:
            classes = _setting_classes("DEFAULT_PERMISSION_CLASSES")
        return [cls() for cls in classes]

    def get_throttles(self) -> list[Any]:
        """Instantiate the throttle classes (REST_FRAMEWORK's defaults when not set)."""
        classes = self.throttle_classes
        if classes is None:
            classes = api_settings.DEFAULT_THROTTLE_CLASSES
        return [cls() for cls in classes]

    def get_exception_handler(self) -> Callable[..., Any]:
        """Return the exception handler (`DJANGO_SERVICES["EXCEPTION_HANDLER"]`)."""
        return import_from_string(services_settings.EXCEPTION_HANDLER, "['EXCEPTION_HANDLER']")

    def get_authenticate_header(self, request: Any) -> str:
        """
        The `WWW-Authenticate` value of 401 answers: the first challenge an authentication
        class offers, else a Bearer one, so that DRF never turns a 401 into a 403.
        """
        for authenticator in self.get_authenticators():
            header = authenticator.authenticate_header(request)
            if header:
                return header
        return DEFAULT_AUTHENTICATE_HEADER

    def get_format_suffix(self, **kwargs: Any) -> None:
        """Services have no format suffixes: route params named `format` are just params."""
        return None

    # Dispatch -----------------------------------------------------------------------------

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """DRF's request lifecycle, calling the resolved service method as the handler."""
        self.args = args
        self.kwargs = kwargs
        request = self.initialize_request(request, *args, **kwargs)
        self.request = request
        self.headers = self.default_response_headers
        try:
            self.initial(request, *args, **kwargs)
            response = self.handle_call(request)
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(request, response, *args, **kwargs)
        return self.response

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Resolve the service method (405 before authentication, as Feathers), then DRF's."""
        header = request.META.get("HTTP_X_SERVICE_METHOD") or None
        self.action = resolve_method(request.method, has_id=self.path_id is not None, header=header)
        check_method_allowed(self.action, header=header, exposed=self.get_methods())
        read_chunked_body(request._request)
        super().initial(request, *args, **kwargs)  # type: ignore[misc]

    def handle_call(self, request: Request) -> HttpResponseBase:
        """Call the service method of `self.action` with the request's id, data and params."""
        method = self.action
        assert method is not None
        params = self.params = self.get_params(request)
        id = self.path_id
        if method == "find":
            result = self.find(params)  # type: ignore[attr-defined]
        elif method == "get":
            result = self.get(id, params)  # type: ignore[attr-defined]
        elif method == "remove":
            if id is None:
                self.check_multi("remove")
            result = self.remove(id, params)  # type: ignore[attr-defined]
        else:
            data = request.data
            if method == "create":
                if isinstance(data, list):
                    self.check_multi("create")
                result = self.create(data, params)  # type: ignore[attr-defined]
            elif method == "update":
                if id is None or isinstance(data, list):
                    raise BadRequest(
                        "You can not replace multiple instances. Did you mean 'patch'?"
                    )
                result = self.update(id, data, params)  # type: ignore[attr-defined]
            elif method == "patch":
                if id is None:
                    self.check_multi("patch")
                result = self.patch(id, data, params)  # type: ignore[attr-defined]
            else:
                result = getattr(self, self._custom_methods[method])(data, params)
        return self.make_response(method, result)

    def get_params(self, request: Request) -> Params:
        """Build the `Params` of an HTTP call."""
        authenticated = request.successful_authenticator is not None
        return Params(
            query=self.parse_query_string(request),
            route=dict(self.route),
            headers=_request_headers(request.META),
            provider="rest",
            user=request.user if authenticated else None,
            authentication=request.auth if authenticated else None,
            request=request,
        )

    def parse_query_string(self, request: Request) -> dict[str, Any]:
        """Parse the query string as Express does, within the DJANGO_SERVICES limits."""
        return codec.parse(
            request.META.get("QUERY_STRING", ""),
            depth=services_settings.QUERY_DEPTH_LIMIT,
            parameter_limit=services_settings.QUERY_PARAMETER_LIMIT,
            list_limit=services_settings.QUERY_LIST_LIMIT,
        )

    def make_response(self, method: str, result: Any) -> HttpResponseBase:
        """
        The response of a method result: 201 for create, 200 otherwise, 204 for `None`.

        A method may also return a Django or DRF response, sent as it is.
        """
        if isinstance(result, HttpResponseBase):
            return result
        if result is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        code = status.HTTP_201_CREATED if method == "create" else status.HTTP_200_OK
        return Response(result, status=code)


def _request_headers(meta: Mapping[str, Any]) -> dict[str, str]:
    """
    The headers of a request, names in lower case (`"x-service-method"`), from its `META`.

    What `request.headers` holds, without building Django's case-insensitive mapping.
    """
    headers = {
        key[5:].replace("_", "-").lower(): value
        for key, value in meta.items()
        if key.startswith("HTTP_")
    }
    for key in _UNPREFIXED_HEADERS:
        if key in meta:
            headers[key.replace("_", "-").lower()] = meta[key]
    return headers


_UNPREFIXED_HEADERS = ("CONTENT_TYPE", "CONTENT_LENGTH")


@functools.lru_cache(maxsize=256)
def _http_methods(methods: frozenset[str]) -> tuple[str, ...]:
    # Sent with every response (`Allow`): the same few sets of methods again and again.
    return tuple(http_methods_for(methods))


@functools.lru_cache(maxsize=32)
def _import_classes(paths: tuple[Any, ...], setting: str) -> tuple[Any, ...]:
    return tuple(
        import_from_string(path, f"[{setting!r}][{index}]") for index, path in enumerate(paths)
    )


def _setting_classes(setting: str) -> tuple[Any, ...]:
    paths: Iterable[Any] = getattr(services_settings, setting)
    return _import_classes(tuple(paths), setting)


def _is_machinery_name(cls: type, name: str) -> bool:
    """Whether `name` is defined by Django, DRF or django-services' own service classes."""
    for base in cls.__mro__[1:]:
        module = base.__module__
        package = module.split(".", 1)[0]
        if name in vars(base) and (
            package in _MACHINERY_PACKAGES or module.startswith(__package__ or "")
        ):
            return True
    return False

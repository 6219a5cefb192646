"""
`ServiceMixin`: the REST adapter of the call pipeline, shared by `Service` and `ModelService`.

    class Echo(ServiceMixin, APIView):     # what `Service` is
        def get(self, id, params):
            return {"id": id}

    view = Echo.as_view()                  # view(request, id="1", route={})

A request runs through DRF's lifecycle (`initialize_request`, `initial`, `handle_exception`,
`finalize_response`), with one handler: the Feathers service method resolved from the verb,
the id and `X-Service-Method`, called through the call pipeline (`calls.py`), which runs the
authentication, permissions, throttles, hooks and events every transport shares. The policies
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
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.versioning import BaseVersioning
from rest_framework.views import APIView

from ..._drf_compat import add_response_closer
from ...conf import import_from_string, services_settings
from ...contract import EVENTS, SERVICE_METHOD_HEADER
from ...errors import NotModified
from ...query import codec
from .. import telemetry
from ..pipeline.calls import CallContext, attach, run_call
from ..pipeline.params import Params
from ..services.base_service import BaseService, is_option
from ..services.conditional import conditional_response, not_modified_response
from ..services.methods import check_method_allowed, http_methods_for, resolve_method
from ..telemetry import current_span
from .negotiation import ServiceContentNegotiation
from .parsers import JSONParser, read_chunked_body
from .renderers import JSONRenderer

__all__ = ["ServiceMixin"]

#: Sent with 401 answers when no authentication class offers a challenge of its own.
DEFAULT_AUTHENTICATE_HEADER = 'Bearer realm="api"'

_SERVICE_METHOD_META = "HTTP_" + SERVICE_METHOD_HEADER.upper().replace("-", "_")


class ServiceMixin(BaseService):
    """
    Serve a Feathers service through DRF. Combine with `APIView` or `GenericViewSet`.

    The options (`methods`, `multi`, `hooks`, `events`) are `BaseService`'s; they are class
    attributes, or keyword arguments of `register()` and `as_view()`.

    **The call in progress** is `call` (see `BaseService`), attached as soon as a request
    arrives: its `id` is the one from the path (percent-decoded, or None), DRF's `kwargs` the
    `:placeholder` values. Once the response is closed, the call and the
    response are let go (`_release_request`).
    """

    authentication_classes: Any = None
    permission_classes: Any = None
    throttle_classes: Any = None
    parser_classes: Any = [JSONParser]
    renderer_classes: Any = [JSONRenderer]
    content_negotiation_class: Any = ServiceContentNegotiation

    #: The id from the path of the request the view was called with.
    _path_id: str | None = None

    if TYPE_CHECKING:
        # Provided by the DRF view the mixin is combined with (APIView, GenericViewSet).
        @property
        def default_response_headers(self) -> dict[str, str]: ...

        def handle_exception(self, exc: Exception) -> Response: ...

        def finalize_response(
            self, request: Request, response: Response, *args: Any, **kwargs: Any
        ) -> Response: ...

        def perform_content_negotiation(
            self, request: Request, force: bool = False
        ) -> tuple[BaseRenderer, str]: ...

        def determine_version(
            self, request: Request, *args: Any, **kwargs: Any
        ) -> tuple[str | None, BaseVersioning | None]: ...

    def __init__(self, **options: Any) -> None:
        # DRF sets it in `initial()`, which only HTTP calls run; a serializer's context reads it.
        self.format_kwarg: Any = None
        super().__init__(**options)

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Callable[..., HttpResponseBase]:
        """
        Return the Django view of the service, with its options set from `initkwargs`.

        The view is called as `view(request, id=None, route=None)` by the services router.
        """
        for key in initkwargs:
            if not is_option(cls, key):
                raise TypeError(
                    f"{cls.__name__} has no option {key!r}: options are attributes of the "
                    "service class."
                )
        cls(**initkwargs)._validate_options()

        def view(
            request: HttpRequest, id: str | None = None, route: dict[str, str] | None = None
        ) -> HttpResponseBase:
            self = cls(**initkwargs)
            self._path_id = id
            response = self.dispatch(request, **(route or {}))
            # Django's handlers close every response once sent (the test client too); the
            # list is how Django itself attaches work to that moment.
            add_response_closer(response, self._release_request)
            return response

        view.cls = cls  # type: ignore[attr-defined]
        view.initkwargs = initkwargs  # type: ignore[attr-defined]
        # Authentication classes enforce CSRF themselves (session), as DRF views do.
        return csrf_exempt(view)

    @property
    def allowed_methods(self) -> list[str]:
        """The HTTP verbs of the exposed methods (DRF's `Allow` header)."""
        return list(_http_methods(self.get_methods()))

    # DRF policies, read when a call comes -------------------------------------------------

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

    def permission_denied(
        self, request: Request, message: str | None = None, code: str | None = None
    ) -> NoReturn:
        """
        Refuse the call: 401 when nobody is authenticated (over HTTP, when an authentication
        class could have authenticated the request, as DRF does), 403 otherwise.
        """
        if request.authenticators and not request.successful_authenticator:
            raise exceptions.NotAuthenticated()
        # A call that brought its user (no request of its own): refused for want of one.
        call = self.call
        brought_user = call is None or call.params.request is None
        if brought_user and not getattr(request.user, "is_authenticated", False):
            raise exceptions.NotAuthenticated()
        raise exceptions.PermissionDenied(detail=message, code=code)

    # Dispatch -----------------------------------------------------------------------------

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        """
        DRF's request of an HTTP request. A service's action is the method of its call, not
        an entry of a viewset's action map: `APIView`'s, not `ViewSetMixin`'s.
        """
        return APIView.initialize_request(self, request, *args, **kwargs)  # type: ignore[arg-type]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """DRF's request lifecycle, calling the resolved service method through the pipeline."""
        drf_request = self.initialize_request(request, *args, **kwargs)
        context = attach(
            CallContext(
                self,
                None,  # type: ignore[arg-type]  # resolved by `initial()`
                id=self._path_id,
                params=Params(
                    route=dict(kwargs),
                    headers=_request_headers(request.META),
                    provider="rest",
                    request=drf_request,
                ),
                load_data=lambda: drf_request.data,
            )
        )
        self.headers = self.default_response_headers
        try:
            self.initial(drf_request, *args, **kwargs)
            if current_span is not None:
                span = current_span()
                if span.is_recording():
                    telemetry.rest_call(span, context.path, context.method, request, self._path_id)
            # Parsed once the method is known to be allowed: a 405 comes before a bad query.
            context.params.query = self._parse_query_string(drf_request)
            context.query_checked = True
            context.event = EVENTS.get(context.method)
            response = self._make_response(context.method, run_call(context))
        except NotModified as exc:
            # A declared field settled the read's preconditions: no representation was built.
            etag = exc.data.get("etag") if isinstance(exc.data, dict) else None
            modified = getattr(self, "_answer_last_modified", None)
            response = not_modified_response(etag=etag, modified=modified)
        except Exception as exc:
            response = self.handle_exception(exc)
        # DRF finalizes any HttpResponseBase (a method may return a Django response); the
        # stubs accept only DRF's Response.
        self.response = self.finalize_response(
            drf_request,
            response,  # type: ignore[arg-type]
            *args,
            **kwargs,
        )
        if context.method is not None:
            try:
                # A 304 stands for the answer: a Django response, as DRF finalizes them too.
                self.response = conditional_response(  # type: ignore[assignment]
                    self, context.method, context.params, self.response
                )
            except Exception as exc:  # a read's If-Match that fails (412)
                self.response = self.finalize_response(
                    drf_request, self.handle_exception(exc), *args, **kwargs
                )
        return self.response

    def _release_request(self) -> None:
        """
        Let go of the request once its response is closed.

        DRF's request and response refer to the view (`parser_context`, `renderer_context`),
        the view to them and to the call, and each of them to itself: reference cycles that
        only the garbage collector frees, in collections whose pauses add up under load.
        Dropping the view's references to the call's objects, and theirs to themselves, frees
        them as soon as the server lets go of the response.
        """
        parser_context = getattr(self.request, "parser_context", None)
        if isinstance(parser_context, dict):
            parser_context.pop("request", None)
        renderer_context = getattr(getattr(self, "response", None), "renderer_context", None)
        if isinstance(renderer_context, dict):
            renderer_context.pop("response", None)
        self.call = None
        # Unset, as before `dispatch()` (DRF types it as always a response).
        vars(self).pop("response", None)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """
        Resolve the service method (405 before authentication, as Feathers), negotiate the
        renderer and the version. Authentication, permissions and throttles are the
        pipeline's.
        """
        header = request.META.get(_SERVICE_METHOD_META) or None
        self.action = resolve_method(
            request.method or "", has_id=self._path_id is not None, header=header
        )
        check_method_allowed(self.action, header=header, exposed=self.get_methods())
        if "HTTP_TRANSFER_ENCODING" in request.META:
            read_chunked_body(request._request)
        # Services have no format suffixes: route params named `format` are just params.
        self.format_kwarg = None
        request.accepted_renderer, request.accepted_media_type = self.perform_content_negotiation(
            request
        )
        request.version, request.versioning_scheme = self.determine_version(
            request, *args, **kwargs
        )

    def _parse_query_string(self, request: Request) -> dict[str, Any]:
        """Parse the query string as Express does, within the DJANGO_SERVICES limits."""
        return codec.parse(
            request.META.get("QUERY_STRING", ""),
            depth=services_settings.QUERY_DEPTH_LIMIT,
            parameter_limit=services_settings.QUERY_PARAMETER_LIMIT,
            list_limit=services_settings.QUERY_LIST_LIMIT,
        )

    def _make_response(self, method: str, result: Any) -> HttpResponseBase:
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

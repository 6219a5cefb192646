"""
The REST adapter's view of a service: DRF's request lifecycle around the call pipeline.

    view = service_view(EchoService, path="echo")   # view(request, id="1", route={})
    EchoView = view_class(EchoService)               # class EchoView(ServiceView, EchoService)
    urlpatterns = [re_path(r"^(?P<path>.*)", serve)]   # every registered service

A service class is a DRF view that knows no transport; its REST view class is composed once
per class, with `ServiceView` first, so that `self.request`, `self.action`, `get_queryset` or
`perform_create` work in a call as in any DRF view. A request runs through DRF's lifecycle
(`initialize_request`, `initial`, `handle_exception`, `finalize_response`), with one
handler: the Feathers service method resolved from the verb, the id and `X-Service-Method`,
called through the call pipeline (`calls.py`), which runs the authentication, permissions,
throttles, hooks and events every transport shares (the service's `get_*` hooks, see
`BaseService`). What a service class leaves unset (None) of REST's own policies is set here,
whatever `REST_FRAMEWORK` says for the project's other views: bodies `JSONParser`, output
`JSONRenderer`, negotiation `ServiceContentNegotiation`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..._drf_compat import add_response_closer
from ...conf import services_settings
from ...contract import (
    CUSTOM_METHOD_VERB,
    EVENTS,
    HTTP_VERBS,
    SERVICE_METHOD_HEADER,
    STANDARD_METHODS,
)
from ...errors import MethodNotAllowed, NotFound, NotModified
from ...query import codec
from .. import telemetry
from ..encoding import json_bytes
from ..pipeline.calls import CallContext, attach, run_call
from ..pipeline.params import Params
from ..registry import Route, request_segments, services
from ..services.base_service import BaseService, is_option
from ..services.conditional import conditional_response, not_modified_response
from ..telemetry import current_span
from .parsers import JSONParser, read_chunked_body, request_data
from .renderers import JSONRenderer, ServiceContentNegotiation

__all__ = [
    "HTTP_METHODS",
    "ServiceView",
    "check_method_allowed",
    "http_methods_for",
    "resolve_method",
    "serve",
    "service_view",
    "view_class",
]

#: REST's policies a service class leaves None, and what its view uses instead.
REST_DEFAULTS: dict[str, Any] = {
    "parser_classes": [JSONParser],
    "renderer_classes": [JSONRenderer],
    "content_negotiation_class": ServiceContentNegotiation,
}

_SERVICE_METHOD_META = "HTTP_" + SERVICE_METHOD_HEADER.upper().replace("-", "_")


class ServiceView(BaseService, APIView):
    """
    The REST view of a service: the first base of the class `view_class()` composes.

    **The call in progress** is `call` (see `BaseService`), attached as soon as a request
    arrives: its `id` is the one from the path (percent-decoded, or None), DRF's `kwargs` the
    `:placeholder` values. Once the response is closed, the call and the
    response are let go (`_release_request`).
    """

    #: The id from the path of the request the view was called with.
    _path_id: str | None = None

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Callable[..., HttpResponseBase]:  # type: ignore[override]
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

    # Dispatch -----------------------------------------------------------------------------

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        """
        DRF's request of an HTTP request. A service's action is the method of its call, not
        an entry of a viewset's action map: `APIView`'s, not `ViewSetMixin`'s.
        """
        return APIView.initialize_request(self, request, *args, **kwargs)

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
                load_data=lambda: request_data(self, drf_request),
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
        # Django's request, read directly: each attribute DRF's `Request` lacks is first a
        # failed lookup (an AttributeError built and formatted), then `__getattr__`.
        http = request._request
        meta = http.META
        header = meta.get(_SERVICE_METHOD_META) or None
        self.action = resolve_method(
            http.method or "", has_id=self._path_id is not None, header=header
        )
        check_method_allowed(self.action, header=header, exposed=self.get_methods())
        if "HTTP_TRANSFER_ENCODING" in meta:
            read_chunked_body(http)
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
            request._request.META.get("QUERY_STRING", ""),
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


#: HTTP verb -> standard method, for the verbs that do not depend on the id.
_VERB_METHODS = {"post": "create", "put": "update", "patch": "patch", "delete": "remove"}

#: Service method -> the HTTP verbs that reach it (custom methods are reached by POST).
HTTP_METHODS: dict[str, tuple[str, ...]] = {
    method: (verb, "HEAD") if verb == "GET" else (verb,) for method, verb in HTTP_VERBS.items()
}


def resolve_method(http_method: str, *, has_id: bool, header: str | None) -> str:
    """
    The service method an HTTP request calls, as Feathers' transport resolves it.

    `X-Service-Method` is honoured on POST only (an id in the path is then ignored). A verb
    with no mapping is 405 `Method <VERB> not allowed`.
    """
    verb = http_method.lower()
    if verb == "post" and header:
        return header
    if verb in ("get", "head"):
        return "get" if has_id else "find"
    try:
        return _VERB_METHODS[verb]
    except KeyError:
        raise MethodNotAllowed(f"Method {http_method} not allowed") from None


def check_method_allowed(method: str, *, header: str | None, exposed: Iterable[str]) -> None:
    """
    Raise 405 unless `method` is exposed and `X-Service-Method` names no standard method.

    A header naming a standard method is refused on every verb, as Feathers does.
    """
    if method not in exposed or header in STANDARD_METHODS:
        raise MethodNotAllowed(f"Method `{method}` is not supported by this endpoint.")


def http_methods_for(methods: Iterable[str]) -> list[str]:
    """The HTTP verbs that reach the given service methods (for the `Allow` header)."""
    verbs: list[str] = []
    for method in methods:
        for verb in HTTP_METHODS.get(method, (CUSTOM_METHOD_VERB,)):
            if verb not in verbs:
                verbs.append(verb)
    order = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
    return sorted(verbs, key=order.index)


@functools.lru_cache(maxsize=256)
def _http_methods(methods: frozenset[str]) -> tuple[str, ...]:
    # Sent with every response (`Allow`): the same few sets of methods again and again.
    return tuple(http_methods_for(methods))


def view_class(service_class: type[BaseService]) -> type[ServiceView]:
    """The REST view class of a service class, composed once per class."""
    composed = _view_classes.get(service_class)
    if composed is None:
        composed = _view_classes.setdefault(service_class, _compose(service_class))
    return composed


#: Service class -> its REST view class.
_view_classes: dict[type[BaseService], type[ServiceView]] = {}


def _compose(service_class: type[BaseService]) -> type[ServiceView]:
    defaults = {
        name: value for name, value in REST_DEFAULTS.items() if getattr(service_class, name) is None
    }
    namespace = {
        "__module__": service_class.__module__,
        "__qualname__": service_class.__qualname__,
        "__doc__": service_class.__doc__,
        **defaults,
    }
    return type(service_class.__name__, (ServiceView, service_class), namespace)


def service_view(service_class: type[BaseService], **options: Any) -> Callable[..., Any]:
    """The Django view of a service class with `options` set (see `ServiceView.as_view`)."""
    return view_class(service_class).as_view(**options)


@csrf_exempt
def serve(request: HttpRequest, path: str = "") -> HttpResponseBase:
    """The Django view serving every registered service (see `django_services.urls`)."""
    segments = request_segments(request, path)
    match = services.router.match(segments) if segments is not None else None
    if match is None:
        return not_found_response(request)
    view = match.route.built("rest", _route_view)
    response: HttpResponseBase = view(request, id=match.id, route=match.params)
    return response


def not_found_response(request: HttpRequest) -> HttpResponse:
    """Feathers' answer for a path no service serves: 404 `Page not found` with the url."""
    error = NotFound("Page not found", {"url": request.get_full_path()})
    body = json_bytes(error.to_json())
    return HttpResponse(body, status=404, content_type="application/json; charset=utf-8")


def _route_view(route: Route) -> Callable[..., HttpResponseBase]:
    return service_view(route.service_class, path=route.path, **route.options)

"""
`BaseService`: what every service is, whatever transport calls it.

    class MessageService(ModelService):
        methods = ["find", "get", "create"]          # exposed to clients
        multi = ["create"]
        hooks = {"before": {"create": [stamp_author]}}
        events = ["typing"]                          # custom events, besides the standard four

    messages = get_service("messages")
    messages.on("created", notify)                   # in-process listener
    messages.find(Params(query={"read": False}))     # an internal call: hooks, then events

The standard methods a class implements and its `@service_method`s are wrapped when the class
is defined, so that calling one from Python is an internal call through the pipeline
(`calls.py`): the 405 rules, the hooks, then the events. An instance may be shared by any
number of threads and coroutines: each call runs on a copy of it of its own (`_for_call`),
which holds the call. Within a call, the methods of that copy run directly: a method or a
hook calling another method of `self` (or `context.service`) runs it without hooks (use
`get_service()` for a call of its own).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, NoReturn

from django.db import DEFAULT_DB_ALIAS
from django.http import HttpRequest
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from ...conf import import_from_string, services_settings
from ...contract import EVENTS, STANDARD_METHODS
from ...errors import MethodNotAllowed
from ..pipeline.calls import CallContext, arguments_of, attach, run_call, run_call_async
from ..pipeline.events import event_bus, schedule_events
from ..pipeline.hooks import normalize_hooks
from ..pipeline.params import Params
from .methods import RESERVED_NAMES, check_options, custom_methods

__all__ = ["DEFAULT_AUTHENTICATE_HEADER", "BaseService", "is_option"]

#: Sent with 401 answers when no authentication class offers a challenge of its own.
DEFAULT_AUTHENTICATE_HEADER = 'Bearer realm="api"'

_PIPELINE_MARKER = "_through_pipeline"


class BaseService:
    """
    The options, methods, hooks and events of a service.

    **Options** (class attributes, or keyword arguments of `register()`):

    * **methods** - the methods exposed to clients; `None` (default): every standard method
      the class implements, plus those declared with `@service_method`.
    * **multi** - `True`, `False` or a list of `"create"`, `"patch"`, `"remove"`: which
      methods accept several records (an array body, or no id). `None`:
      `DJANGO_SERVICES["MULTI"]`.
    * **hooks** - `{"around"|"before"|"after"|"error": [hooks] or {method or "all": [hooks]}}`
      (see `hooks.py`).
    * **events** - the names of the custom events the service may `emit()`.

    **The call in progress** is `call`, its `CallContext`, which the pipeline gives the
    service when the call starts (`calls.attach`). What DRF's views read is derived from it:
    `action` (the method name), `params`, `request` (the DRF request permissions are checked
    on, or None) and `kwargs` (the route's `:placeholder` values).
    """

    methods: Collection[str] | None = None
    multi: bool | Collection[str] | None = None
    hooks: Mapping[str, Any] | None = None
    events: Collection[str] = ()
    #: The path the service is registered at (`"users/:userId/notes"`); set by the registry.
    path: str | None = None
    #: DRF's policies, read through the `get_*` hooks below; None: the defaults of services.
    authentication_classes: Any = None
    permission_classes: Any = None
    throttle_classes: Any = None
    #: REST's own policies; None: the REST adapter's (`JSONParser`, `JSONRenderer`, ...).
    parser_classes: Any = None
    renderer_classes: Any = None
    content_negotiation_class: Any = None
    #: DRF sets it in `initial()`, which only HTTP calls run; a serializer's context reads it.
    format_kwarg: Any = None

    call: CallContext | None = None
    _calling: bool = False
    #: With events written to the event log (a publisher set), whether a call that may
    #: write runs its hooks, its method and its events' log rows in one transaction
    #: (`calls._write_transaction`): a model service's records and their events commit
    #: together. Off for a service whose methods write, then fail on purpose (a refused
    #: refresh token revokes its family, then answers 401).
    _atomic_writes: bool = False

    #: Custom methods: wire name -> attribute name.
    _custom_methods: dict[str, str] = {}
    #: The methods the class implements (standard ones in Feathers' order, then custom ones),
    #: as a set, and those of them that are coroutine functions.
    _implemented: tuple[str, ...] = ()
    _all_methods: frozenset[str] = frozenset()
    _async_methods: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = custom_methods(cls)
        for name, attribute in declared.items():
            if name in STANDARD_METHODS:
                raise TypeError(
                    f"{cls.__name__}.{attribute}: @service_method is for custom methods; "
                    f"{name!r} is a standard method, exposed when implemented."
                )
            if name.startswith("_") or attribute.startswith("_") or attribute in RESERVED_NAMES:
                raise TypeError(
                    f"{cls.__name__}.{attribute}: {attribute!r} cannot be a custom method name, "
                    "it is used by the service machinery (Django, DRF or django-feathers)."
                )
        cls._custom_methods = declared
        for name, attribute in [*((name, name) for name in STANDARD_METHODS), *declared.items()]:
            function = vars(cls).get(attribute)
            if callable(function) and not getattr(function, _PIPELINE_MARKER, False):
                setattr(cls, attribute, _through_pipeline(name, function))
        # Asked on every call: worked out once, with the class.
        cls._implemented = tuple(
            name for name in STANDARD_METHODS if callable(getattr(cls, name, None))
        ) + tuple(declared)
        cls._all_methods = frozenset(cls._implemented)
        cls._async_methods = frozenset(
            name
            for name in cls._implemented
            if inspect.iscoroutinefunction(getattr(cls, declared.get(name, name)))
        )

    def _validate_options(self) -> None:
        """Raise ImproperlyConfigured when an option has a value that cannot work."""
        check_options(self)

    # The call in progress, as DRF's views name its parts -----------------------------------

    @property
    def action(self) -> str | None:
        """The method of the call in progress (DRF's `action`), or None between calls."""
        call = self.call
        return call.method if call is not None else None

    @action.setter
    def action(self, value: str | None) -> None:
        self._context().method = value  # type: ignore[assignment]

    @property
    def params(self) -> Params | None:
        """The `Params` of the call in progress, or None between calls."""
        call = self.call
        return call.params if call is not None else None

    @property
    def request(self) -> Any:
        """The DRF request of the call in progress (permissions read it), or None."""
        call = self.call
        return call.request if call is not None else None

    @request.setter
    def request(self, value: Any) -> None:
        self._context().request = value

    @property
    def kwargs(self) -> dict[str, str]:
        """DRF's keyword URL arguments: the route's `:placeholder` values of the call."""
        call = self.call
        return call.params.route if call is not None else {}

    def _for_call(self) -> BaseService:
        """
        A copy of the instance for one call: its options and attributes, not its call state,
        which the copy gets (the instance it was made from is left as it was).
        """
        copy = object.__new__(type(self))
        vars(copy).update(vars(self))
        return copy

    def _context(self) -> CallContext:
        """The call in progress, or an empty one given to the service for a view's parts."""
        call = self.call
        if call is None:
            call = attach(CallContext(self, None))  # type: ignore[arg-type]
        return call

    # DRF policies, read when a call comes, whatever transport carried it -------------------

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        """
        DRF's request of a socket's HTTP-shaped request, authenticated by the service's
        authenticators (its data is the call's, never parsed). The REST view has its own.
        """
        context = {"view": self, "args": args, "kwargs": kwargs}
        return Request(request, authenticators=self.get_authenticators(), parser_context=context)

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
                return str(header)
        return DEFAULT_AUTHENTICATE_HEADER

    def permission_denied(
        self, request: Any, message: str | None = None, code: str | None = None
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

    # Methods ------------------------------------------------------------------------------

    def _implemented_methods(self) -> tuple[str, ...]:
        """The standard methods the class implements and its `@service_method`s."""
        return type(self)._implemented

    def get_methods(self) -> frozenset[str]:
        """The methods clients may call (the `methods` option, or all implemented)."""
        if self.methods is not None:
            return frozenset(self.methods)
        return type(self)._all_methods

    def _get_multi(self) -> bool | Collection[str]:
        """The `multi` option, or `DJANGO_SERVICES["MULTI"]` when not set."""
        return services_settings.MULTI if self.multi is None else self.multi

    def _allows_multi(self, method: str) -> bool:
        """Whether `method` may work on several records at once."""
        multi = self._get_multi()
        if isinstance(multi, bool):
            return multi
        return method in multi

    def _check_multi(self, method: str) -> None:
        """Raise 405 `Can not <method> multiple entries` unless `multi` allows it."""
        if not self._allows_multi(method):
            raise MethodNotAllowed(f"Can not {method} multiple entries")

    # Hooks and events ---------------------------------------------------------------------

    def _get_hooks(self) -> Mapping[str, Mapping[str, tuple[Callable[..., Any], ...]]]:
        """The service's hooks, checked and normalised once per class (or per instance)."""
        hooks = self.hooks
        if not hooks:
            return {}
        holder = self if "hooks" in vars(self) else type(self)
        cached = vars(holder).get("_normalized_hooks")
        if cached is None or cached[0] is not hooks:
            cached = (hooks, normalize_hooks(hooks, f"{type(self).__name__}.hooks"))
            holder._normalized_hooks = cached  # type: ignore[union-attr]
        return cached[1]

    def _event_database(self) -> str:
        """The database alias whose commit releases the service's events."""
        return DEFAULT_DB_ALIAS

    def on(self, event: str, listener: Callable[[Any, CallContext], Any]) -> None:
        """Call `listener(data, context)` after each `event` of this service commits."""
        event_bus.on(self.path, self._known_event(event), listener)

    def off(self, event: str, listener: Callable[[Any, CallContext], Any]) -> None:
        """Stop calling `listener` for `event`."""
        event_bus.off(self.path, self._known_event(event), listener)

    def emit(self, event: str, data: Any) -> None:
        """
        Emit `event` with `data` to the service's listeners, once the current transaction (on
        `_event_database()`) commits, at once outside one.
        """
        event = self._known_event(event)
        context = self.call if self._calling and self.call is not None else None
        if context is None:
            context = CallContext(self, event)
        context = _event_context(context, data)
        schedule_events(self.path, event, [data], context, using=self._event_database())

    def _known_event(self, event: str) -> str:
        known = (*EVENTS.values(), *self.events)
        if event not in known:
            raise ValueError(
                f"{type(self).__name__} has no event {event!r}. Its events: "
                f"{', '.join(known)} (declare custom ones in `events`)."
            )
        return event

    # Internal calls -----------------------------------------------------------------------

    def _internal_call(
        self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> CallContext:
        values = arguments_of(method, args, kwargs)
        params = values.get("params")
        if params is None:
            params = Params()
        elif isinstance(params, Mapping):
            params = Params(**params)
        return CallContext(
            self, method, id=values.get("id"), data=values.get("data"), params=params
        )


def is_option(cls: type, name: str) -> bool:
    """Whether `name` is an option of the service class `cls` (an attribute, or a shorthand)."""
    if name.startswith("_"):
        return False
    return hasattr(cls, name) or name in getattr(cls, "_shorthand_options", ())


def _event_context(context: CallContext, data: Any) -> CallContext:
    """The reduced context of a custom event: the service, its path, the data as result."""
    reduced = CallContext(context.service, context.method, params=context.params)
    reduced.result = data
    return reduced


def _through_pipeline(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a service method so that a call from outside runs through the pipeline."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def method(self: BaseService, *args: Any, **kwargs: Any) -> Any:
            if self._calling:
                return await function(self, *args, **kwargs)
            return await run_call_async(self._internal_call(name, args, kwargs))

    else:

        @functools.wraps(function)
        def method(self: BaseService, *args: Any, **kwargs: Any) -> Any:
            if self._calling:
                return function(self, *args, **kwargs)
            return run_call(self._internal_call(name, args, kwargs))

    setattr(method, _PIPELINE_MARKER, True)
    return method


@functools.lru_cache(maxsize=32)
def _import_classes(paths: tuple[Any, ...], setting: str) -> tuple[Any, ...]:
    return tuple(
        import_from_string(path, f"[{setting!r}][{index}]") for index, path in enumerate(paths)
    )


def _setting_classes(setting: str) -> tuple[Any, ...]:
    paths: Iterable[Any] = getattr(services_settings, setting)
    return _import_classes(tuple(paths), setting)

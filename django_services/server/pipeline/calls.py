"""
The call pipeline: every service call takes the same steps, whatever carried it.

    context = CallContext(service, "get", id="42", params=Params(provider="socketio", user=user))
    result = run_call(context)                 # or `await run_call_async(context)`

The steps, in order:

1. **method rules**: a method the service does not expose to this caller is 405; several
   records to a method `multi` does not allow is 405; `update` without an id is 400;
2. **authentication**: an HTTP call runs the service's DRF authenticators on its request;
   any other call brings its authentication with it (`params.user`, `params.authentication`,
   as a socket connection stores them after its login);
3. **permissions and throttles**: the service's DRF permission and throttle classes, for every
   call with a `provider` (internal calls, `provider=None`, skip them and step 2, as Feathers'
   internal calls skip what transports add; give a provider to have them checked);
   then **the input checks** of every call with a provider (`inputs.py`: depth, text,
   numbers and query limits, the same whatever transport carried the call);
4. **hooks** around **the method** (see `hooks.py`): the result is `context.result`;
5. **events**: the event of a successful write, published after commit (see `events.py`).
   With a publisher, the events are written to the event log: steps 4 and 5 of a call that
   may write share one transaction (`_write_transaction`), so that they commit together.

Each call runs on a service instance of its own, which holds one reference to the call,
`service.call`; DRF's `action`, `request` and `kwargs` are read from it. An adapter makes
that instance and attaches the call to it (`attach`): REST's view of the request (`views.py`),
the socket transport's service of the message. A call made on any other instance
(`service.find(params)` on one from `get_service()`, an internal call with `provider=None`)
runs on a copy of it made for the call (`_begin`), so that one instance may be shared by any
number of threads and coroutines at once, as Feathers' `app.service()`: every call runs its
hooks, sees its own params and leaves nothing on the shared instance.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from django.http import HttpResponseBase
from rest_framework.request import Request

from ...conf import services_settings
from ...contract import CUSTOM_METHOD_ARGUMENTS, EVENTS, METHOD_ARGUMENTS, method_arguments
from ...errors import BadRequest, MethodNotAllowed
from .call_request import build_request
from .events import schedule_events
from .hooks import HookChain, chain_for
from .inputs import check_input
from .params import Params

__all__ = ["CallContext", "arguments_of", "attach", "run_call", "run_call_async"]

REPLACE_MULTIPLE = "You can not replace multiple instances. Did you mean 'patch'?"

_UNSET: Any = object()


class CallContext:
    """
    One service call, as hooks, permissions and the method see it (Feathers' hook context).

    * **service** - the service instance answering the call; **path** - where it is
      registered (`"users/:userId/notes"`); **method** - the method name.
    * **id**, **data** - the method's arguments (None when the method takes none).
    * **params** - the `Params`: `query`, `route`, `headers`, `provider`, `user`,
      `authentication`, and `request` for HTTP calls.
    * **query** - the parsed Feathers query, once a `ModelService` has parsed `params.query`;
      **query_checked** - whether the transport read `params.query` within the input limits
      already (REST's query string), so that they are checked once.
    * **result** - the result, once the method (or a before hook) set it; **error** - the
      exception, in error hooks; **type** - `"around"`, `"before"`, `"after"` or `"error"`.
    * **event** - the event a successful call emits (`"created"`...); a hook may change it,
      or set None to emit nothing.
    * **request** - the DRF request permissions and throttles are checked on: the HTTP
      request, or the one `call_request.build_request` builds for a call that has none.
    """

    __slots__ = (
        "_data_loader",
        "_result",
        "data",
        "error",
        "event",
        "id",
        "method",
        "params",
        "query",
        "query_checked",
        "request",
        "service",
        "type",
    )

    def __init__(
        self,
        service: Any,
        method: str,
        *,
        id: Any = None,
        data: Any = None,
        params: Params | None = None,
        request: Any = None,
        load_data: Callable[[], Any] | None = None,
    ) -> None:
        self.service = service
        self.method = method
        self.id = id
        self.data = data
        self.params = params if params is not None else Params()
        self.request = request if request is not None else self.params.request
        self.query: Any = None
        # The transport read `params.query` within the input limits (a query string): they
        # are not walked again.
        self.query_checked = False
        self.error: BaseException | None = None
        self.type: str | None = None
        self.event: str | None = EVENTS.get(method)
        self._result: Any = _UNSET
        # A body read once the call is allowed, as DRF reads it (a transport's lazy data).
        self._data_loader = load_data

    @property
    def path(self) -> str | None:
        """The path the service is registered at."""
        return getattr(self.service, "path", None)

    @property
    def provider(self) -> str | None:
        """`params.provider`: `"rest"`, `"socketio"`, or None for an internal call."""
        return self.params.provider

    @property
    def result(self) -> Any:
        """The result of the call (None until set)."""
        result = self._result
        return None if result is _UNSET else result

    @result.setter
    def result(self, value: Any) -> None:
        self._result = value

    @property
    def has_result(self) -> bool:
        """Whether a result was set (setting one in a before hook skips the method)."""
        return self._result is not _UNSET

    def clear_result(self) -> None:
        """Forget the result, as if none had been set."""
        self._result = _UNSET

    def arguments(self) -> tuple[Any, ...]:
        """The positional arguments of the method: `(id, data, params)` as it takes them."""
        values = {"id": self.id, "data": self.data, "params": self.params}
        names = METHOD_ARGUMENTS.get(self.method, CUSTOM_METHOD_ARGUMENTS)
        return tuple(values[name] for name in names)

    def __repr__(self) -> str:
        return f"<CallContext {self.method} {self.path!r} provider={self.provider!r}>"


def arguments_of(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """`id`, `data` and `params` from the arguments of a method call (TypeError if wrong)."""
    names = method_arguments(method)
    if len(args) > len(names):
        raise TypeError(f"{method}() takes {len(names)} arguments but {len(args)} were given")
    values = dict(zip(names, args, strict=False))
    for name, value in kwargs.items():
        if name not in names or name in values:
            raise TypeError(f"{method}() got an unexpected or repeated argument {name!r}")
        values[name] = value
    missing = [name for name in names if name not in values and name != "params"]
    if missing:
        raise TypeError(f"{method}() missing the argument {missing[0]!r}")
    return values


def run_call(context: CallContext) -> Any:
    """
    Run the call through every step and return its result (see the module). An async
    method runs in an event loop of its own (`async_to_sync`), as Django runs async views.
    """
    if context.method in type(context.service)._async_methods:
        return async_to_sync(run_call_async)(context)
    service = _begin(context)
    try:
        _check_access(context)
        chain = _hook_chain(service, context.method)
        function = _method_function(service, context.method)
        with _write_transaction(context):
            try:
                if chain:
                    result = chain.run(context, lambda: function(*context.arguments()))
                else:
                    result = context.result = function(*context.arguments())
            finally:
                service._calling = False
            _emit(context)
    finally:
        service._calling = False
    return result


def _hook_chain(service: Any, method: str) -> HookChain | None:
    """The hooks a call runs; None when neither the service nor the app declares any."""
    hooks = service._get_hooks()
    if not hooks and not services_settings.HOOKS:
        return None
    return chain_for(hooks, method)


def _write_transaction(context: CallContext) -> contextlib.AbstractContextManager[Any]:
    """
    With events written to the event log (a publisher set), the transaction a call that may
    write shares with its events' log rows: its hooks, its method and step 5, on the database
    its records are written to, so that its events exist exactly when its write commits (a
    service with `_atomic_writes`, as model services are).
    """
    if (
        context.method in _READS
        or context.path is None
        or not context.service._atomic_writes
        or services_settings.SOCKETIO_PUBLISHER is None
    ):
        return contextlib.nullcontext()
    return transaction.atomic(using=context.service._event_database())


async def run_call_async(context: CallContext) -> Any:
    """
    `run_call()` for an event loop: async methods and hooks are awaited; a sync method, and
    the permission and throttle checks, run in Django's sync thread (`sync_to_async`).
    """
    service = _begin(context)
    try:
        if context.provider is not None:
            await sync_to_async(_check_access)(context)
        else:
            _check_access(context)
        function = _method_function(service, context.method)
        if inspect.iscoroutinefunction(function):

            async def method() -> Any:
                return await function(*context.arguments())
        else:

            async def method() -> Any:
                return await sync_to_async(function)(*context.arguments())

        chain = _hook_chain(service, context.method)
        if chain:
            result = await chain.run_async(context, method)
        else:
            result = context.result = await method()
    finally:
        service._calling = False
    await sync_to_async(_emit)(context)
    return result


#: The methods that only read: they run outside any transaction of the pipeline.
_READS = frozenset({"find", "get"})


def _method_function(service: Any, method: str) -> Callable[..., Any]:
    """The bound method answering `method` (a standard name or a custom wire name)."""
    return getattr(service, service._custom_methods.get(method, method))


def attach(context: CallContext) -> CallContext:
    """
    Make `context` the call in progress of its service: the one reference a service holds
    to its call, whatever carried it (`service.call`; DRF's `action`, `request` and `kwargs`
    are read from it).
    """
    context.service.call = context
    return context


def _begin(context: CallContext) -> Any:
    """
    The service instance that runs the call: the one its adapter made for it and attached it
    to (a REST request's view, a socket call's service), else a copy of the instance the call
    was made on, of its own. An instance that hands out calls (`get_service()`'s, shared by
    any number of threads and coroutines) is never given one: it holds no call state.
    """
    service = context.service
    if service.call is not context:
        service = context.service = service._for_call()
        service.call = context
    service._calling = True
    return service


def _check_access(context: CallContext) -> None:
    """Steps 1 to 3: the method rules, authentication, permissions and throttles."""
    service = context.service
    method = context.method
    external = context.provider is not None
    exposed = service.get_methods() if external else service._all_methods
    if method not in exposed:
        raise not_allowed(context)
    if external:
        request = context.request
        if request is None:
            request = context.request = build_request(
                context.service, context.method, context.path, context.params, context.data
            )
        if request.authenticators:
            authenticate(context, request)
        service.check_permissions(request)
        service.check_throttles(request)
    if context._data_loader is not None and "data" in METHOD_ARGUMENTS.get(
        method, CUSTOM_METHOD_ARGUMENTS
    ):
        context.data = context._data_loader()
        context._data_loader = None
    # What is left to check: a query string was read within the limits (`inputs.py`).
    if external and (
        context.id is not None or context.data is not None or not context.query_checked
    ):
        check_input(context)
    if method == "update":
        if context.id is None or isinstance(context.data, list):
            raise BadRequest(REPLACE_MULTIPLE)
    elif (method == "create" and isinstance(context.data, list)) or (
        method in ("patch", "remove") and context.id is None
    ):
        service._check_multi(method)


def not_allowed(context: CallContext) -> MethodNotAllowed:
    """The 405 of a method the caller may not call, in the words of its transport."""
    if context.provider == "socketio":
        return MethodNotAllowed(
            f"Method '{context.method}' not allowed on service '{context.path}'"
        )
    return MethodNotAllowed(f"Method `{context.method}` is not supported by this endpoint.")


def authenticate(context: CallContext, request: Request) -> None:
    """Run the DRF authenticators of an HTTP request; put what they found in the params."""
    context.service.perform_authentication(request)
    if request.successful_authenticator is not None:
        context.params.user = request.user
        context.params.authentication = request.auth


def _emit(context: CallContext) -> None:
    """Step 5: schedule the call's event, one per record for a list result."""
    event = context.event
    result = context.result
    if not event or result is None or isinstance(result, HttpResponseBase):
        return
    records = result if isinstance(result, list) else [result]
    schedule_events(context.path, event, records, context, using=context.service._event_database())

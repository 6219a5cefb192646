"""
Remote services: each method is one HTTP request to a Feathers REST service.

    todos = connection.service("todos")
    todos.find(query={"complete": False, "$limit": 10})
    todos.patch(1, {"complete": True})

`RestService` (over requests or an `httpx.Client`) returns results; `AsyncRestService` (over an
`httpx.AsyncClient` or aiohttp) has coroutine methods. Both build their requests with the same
core and differ only in how they wait. Subclass them and pass `service_class=` to a
`rest_client()` handler to change one step.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..contract import STANDARD_METHODS
from ._base import PARAMS_KEYS, Request, build_request
from ._flow import call_flow, drive
from .preconditions import ETagMemory, check_if_match

if TYPE_CHECKING:
    from ._types import ServiceApp, ServiceConnection

__all__ = ["AsyncRestService", "BaseRestService", "Params", "RestService"]

#: A service call's params: `query`, `headers`, `route` and `connection`, each a dict.
Params = Mapping[str, Any]


class BaseRestService:
    """
    What sync and async services share: their address and how to describe a call.

    **Parameters:**

    * **name** - the service path, e.g. `"api/v1/messages"` or `"users/:userId/notes"`.
    * **connection** - the connection that sends the requests.
    * **app** - the `App` the service is registered with, if any; it adds the authentication
      header.
    * **methods** - the methods the service exposes, custom ones included (Feathers'
      `methods` option). The standard methods are always available.
    """

    # Sends the custom method `name`; each subclass defines it, blocking or as a coroutine.
    _call_custom: Callable[..., Any]

    def __init__(
        self,
        name: str,
        *,
        connection: ServiceConnection,
        app: ServiceApp | None = None,
        methods: Iterable[str] | None = None,
        if_match: bool | str | None = None,
    ) -> None:
        self.name = name.strip("/")
        self.connection = connection
        self.base = f"{connection.base}/{self.name}"
        self.app = app
        self.methods: tuple[str, ...] = STANDARD_METHODS
        if methods is not None:
            self.methods = self._check_methods(methods)
        #: The version last read of each record, sent as `If-Match` (see `preconditions`).
        self.etags: ETagMemory | None = self._etag_memory(if_match)

    @property
    def custom_methods(self) -> tuple[str, ...]:
        """The declared methods that are not one of the six standard ones."""
        return tuple(name for name in self.methods if name not in STANDARD_METHODS)

    def bind(
        self,
        app: ServiceApp,
        *,
        methods: Iterable[str] | None = None,
        if_match: bool | str | None = None,
    ) -> BaseRestService:
        """
        Return a copy of this service registered with `app`, exposing `methods`; with
        `if_match`, its writes by id send the version last read as `If-Match`.
        """
        bound = copy.copy(self)
        bound.app = app
        if methods is not None:
            bound.methods = bound._check_methods(methods)
        field = if_match
        if field is None and self.etags is not None:
            field = self.etags.field
        bound.etags = bound._etag_memory(field)
        return bound

    def build_request(
        self,
        method: str,
        params: Params | None = None,
        *,
        id: Any = None,
        data: Any = None,
    ) -> Request:
        """Describe the request for a call of `method`, with the app's headers added."""
        auth_headers = self.app.get_request_headers(self.name, method) if self.app else None
        return build_request(
            method,
            self.connection.base,
            self.name,
            params,
            id=id,
            data=data,
            default_headers=self.connection.headers,
            auth_headers=auth_headers,
        )

    def _call(self, method: str, params: Params, *, id: Any = None, data: Any = None) -> Any:
        # One call: its request, sent, with the precondition added and the answer's version
        # remembered when the service has `if_match`.
        memory = self.etags
        if memory is None:
            return self._send(self.build_request(method, params, id=id, data=data))
        params = memory.precondition(self.name, method, id, params)
        request = self.build_request(method, params, id=id, data=data)
        if self.connection.is_async:
            return memory.wrap_async(self.name, method, id, params, self._send(request))
        return memory.wrap(self.name, method, id, params, lambda: self._send(request))

    def _etag_memory(self, if_match: Any) -> ETagMemory | None:
        field = check_if_match(
            if_match, call_headers=getattr(self.connection, "call_headers", True)
        )
        return None if field is None else ETagMemory(field)

    def _send(self, request: Request) -> Any:
        # Every method sends through here: to `App.send` when the service belongs to an app (a
        # custom method may be called "send", so the hook is the app's), else to the connection.
        if self.app is not None:
            return self.app.send(self, request)
        return drive(call_flow(self.connection, request), self.connection)

    def _check_methods(self, methods: Iterable[str]) -> tuple[str, ...]:
        if isinstance(methods, str):
            raise TypeError("methods must be a list of method names, not a single string.")
        names = tuple(dict.fromkeys(methods))
        for name in names:
            if not isinstance(name, str) or not name:
                raise TypeError(f"A method name must be a non-empty string, not {name!r}.")
            if name not in STANDARD_METHODS and (
                name.startswith("_") or hasattr(type(self), name) or name in self.__dict__
            ):
                raise ValueError(
                    f"'{name}' on service '{self.name}' is not allowed as a custom method name: "
                    f"it is already an attribute of {type(self).__name__}."
                )
        return names

    def __getattr__(self, name: str) -> Callable[..., Any]:
        methods = self.__dict__.get("methods", ())
        if name in methods and name not in STANDARD_METHODS:
            return functools.partial(self._call_custom, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self.custom_methods})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} base={self.base!r}>"


def merge_params(
    params: Params | None,
    query: Mapping[str, Any] | None,
    headers: Mapping[str, Any] | None,
    route: Mapping[str, Any] | None,
    connection: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """Return `params` with the keyword arguments given to a method laid over it."""
    if params is None:
        merged: dict[str, Any] = {}
    elif isinstance(params, Mapping):
        merged = dict(params)
    else:
        raise TypeError(f"params must be a dict, not {type(params).__name__}.")
    for key, value in zip(PARAMS_KEYS, (query, headers, route, connection), strict=True):
        if value is not None:
            merged[key] = value
    return merged


class RestService(BaseRestService):
    """A remote service whose methods block until the result arrives."""

    def find(
        self,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return the records matching the query: a list, or a page (`GET /<service>`)."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("find", params)

    def get(
        self,
        id: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return the record with this id (`GET /<service>/<id>`)."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("get", params, id=id)

    def create(
        self,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Create a record, or several from a list; return what was created (`POST`)."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("create", params, data=data)

    def update(
        self,
        id: Any,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Replace the record with this id; return it (`PUT /<service>/<id>`)."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("update", params, id=id, data=data)

    def patch(
        self,
        id: Any,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Merge `data` into the record with this id, or (id `None`) every match of the query."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("patch", params, id=id, data=data)

    def remove(
        self,
        id: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Remove the record with this id, or (id `None`) every match; return what was removed."""
        params = merge_params(params, query, headers, route, connection)
        return self._call("remove", params, id=id)

    def _call_custom(
        self,
        name: str,
        data: Any = None,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        params = merge_params(params, query, headers, route, connection)
        return self._call(name, params, data=data)


class AsyncRestService(BaseRestService):
    """A remote service whose methods are coroutines."""

    async def find(
        self,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return the records matching the query: a list, or a page (`GET /<service>`)."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("find", params)

    async def get(
        self,
        id: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return the record with this id (`GET /<service>/<id>`)."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("get", params, id=id)

    async def create(
        self,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Create a record, or several from a list; return what was created (`POST`)."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("create", params, data=data)

    async def update(
        self,
        id: Any,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Replace the record with this id; return it (`PUT /<service>/<id>`)."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("update", params, id=id, data=data)

    async def patch(
        self,
        id: Any,
        data: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Merge `data` into the record with this id, or (id `None`) every match of the query."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("patch", params, id=id, data=data)

    async def remove(
        self,
        id: Any,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        """Remove the record with this id, or (id `None`) every match; return what was removed."""
        params = merge_params(params, query, headers, route, connection)
        return await self._call("remove", params, id=id)

    async def _call_custom(
        self,
        name: str,
        data: Any = None,
        params: Params | None = None,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        route: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
    ) -> Any:
        params = merge_params(params, query, headers, route, connection)
        return await self._call(name, params, data=data)

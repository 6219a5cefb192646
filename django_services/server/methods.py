"""
Service methods: the six standard ones, custom ones, and how HTTP requests map to them.

    class MessageService(Service):
        def find(self, params): ...

        @service_method(name="markRead")
        def mark_read(self, data, params):      # POST /messages + X-Service-Method: markRead
            ...

    resolve_method("GET", has_id=True, header=None)   # "get"

The methods a service exposes are the standard ones it implements plus those declared with
`@service_method` (or exactly the names of its `methods` option). Anything else is answered
405, with Feathers' messages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, overload

from ..contract import CUSTOM_METHOD_VERB, HTTP_VERBS, STANDARD_METHODS
from ..errors import MethodNotAllowed

__all__ = [
    "HTTP_METHODS",
    "STANDARD_METHODS",
    "check_method_allowed",
    "custom_methods",
    "http_methods_for",
    "resolve_method",
    "service_method",
]

F = TypeVar("F", bound=Callable[..., Any])

#: HTTP verb -> standard method, for the verbs that do not depend on the id.
_VERB_METHODS = {"post": "create", "put": "update", "patch": "patch", "delete": "remove"}

#: Service method -> the HTTP verbs that reach it (custom methods are reached by POST).
HTTP_METHODS: dict[str, tuple[str, ...]] = {
    method: (verb, "HEAD") if verb == "GET" else (verb,) for method, verb in HTTP_VERBS.items()
}

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

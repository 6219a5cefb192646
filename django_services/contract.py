"""
The Feathers vocabulary both halves share: service methods and their arguments, HTTP verbs,
headers and events.

    from django_services.contract import HTTP_VERBS, SERVICE_METHOD_HEADER

    HTTP_VERBS["patch"]        # "PATCH"
    SERVICE_METHOD_HEADER      # "X-Service-Method": names a custom method sent by POST

The server resolves requests with these names and the client builds requests with them, so a
round trip through our own client and server agrees by construction. Nothing here does I/O or
needs Django settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "CUSTOM_METHOD_ARGUMENTS",
    "CUSTOM_METHOD_VERB",
    "EVENTS",
    "HTTP_VERBS",
    "METHODS_REQUIRING_ID",
    "METHODS_WITH_BODY",
    "METHODS_WITH_ID",
    "METHOD_ARGUMENTS",
    "MULTI_METHODS",
    "RETRY_AFTER_HEADER",
    "SERVICE_METHOD_HEADER",
    "STANDARD_METHODS",
    "WWW_AUTHENTICATE_HEADER",
    "method_arguments",
]

#: The standard service methods, in Feathers' order.
STANDARD_METHODS: tuple[str, ...] = ("find", "get", "create", "update", "patch", "remove")

#: The HTTP verb each standard method is sent with. A server answers `HEAD` as it answers `GET`.
HTTP_VERBS: Mapping[str, str] = MappingProxyType(
    {
        "find": "GET",
        "get": "GET",
        "create": "POST",
        "update": "PUT",
        "patch": "PATCH",
        "remove": "DELETE",
    }
)

#: The verb of every custom method, which the service method header names.
CUSTOM_METHOD_VERB = "POST"

#: The header naming the custom method a `POST` calls.
SERVICE_METHOD_HEADER = "X-Service-Method"

#: The arguments of each standard method, in order: the one table every transport, the call
#: pipeline and the clients read them from (Feathers' signatures).
METHOD_ARGUMENTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "find": ("params",),
        "get": ("id", "params"),
        "create": ("data", "params"),
        "update": ("id", "data", "params"),
        "patch": ("id", "data", "params"),
        "remove": ("id", "params"),
    }
)

#: The arguments of every custom method.
CUSTOM_METHOD_ARGUMENTS: tuple[str, ...] = ("data", "params")


def method_arguments(method: str) -> tuple[str, ...]:
    """The arguments of `method`, in order: `("id", "data", "params")` for `update`."""
    return METHOD_ARGUMENTS.get(method, CUSTOM_METHOD_ARGUMENTS)


#: The methods whose URL carries an id (`None` means every match for `patch` and `remove`).
METHODS_WITH_ID = frozenset(name for name, args in METHOD_ARGUMENTS.items() if "id" in args)

#: The methods that can not be called without an id.
METHODS_REQUIRING_ID = frozenset({"get", "update"})

#: The standard methods that send a JSON body; every custom method sends one too.
METHODS_WITH_BODY = frozenset(name for name, args in METHOD_ARGUMENTS.items() if "data" in args)

#: The methods that may write several records at once, when the service allows it (`multi`).
MULTI_METHODS: tuple[str, ...] = ("create", "patch", "remove")

#: The event a service emits after each write method succeeds.
EVENTS: Mapping[str, str] = MappingProxyType(
    {"create": "created", "update": "updated", "patch": "patched", "remove": "removed"}
)

#: The header of a 429 or 503 answer that says how many seconds to wait before trying again.
RETRY_AFTER_HEADER = "Retry-After"

#: The header of a 401 answer that names the authentication scheme to use.
WWW_AUTHENTICATE_HEADER = "WWW-Authenticate"

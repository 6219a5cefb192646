"""
Call any Feathers v5 REST service from Python, as local functions, sync or async.

    from django_services.client import App, rest_client

    app = App().configure(rest_client("https://api.example.com").requests(requests.Session()))
    app.service("messages").find(query={"read": False, "$limit": 10})

Importing this package needs neither Django settings nor httpx nor aiohttp: each HTTP library
is imported when its `rest_client()` handler is used, and only `SessionStorage` and
`CacheStorage` need a configured Django project.
"""

from __future__ import annotations

import types

from .. import errors
from .app import App
from .authentication import (
    AsyncAuthenticationClient,
    AuthenticationClient,
    BaseAuthenticationClient,
    CacheStorage,
    MemoryStorage,
    SessionStorage,
    Storage,
    authentication_client,
)
from .conditional import etag_of
from .config import DEFAULT_TIMEOUT, Retries, TimeoutConfig
from .rest import RestClient, rest_client
from .services import AsyncRestService, BaseRestService, RestService
from .sockets import socketio_client
from .transports import AsyncTransport, BaseTransport, Transport

__all__ = [
    "DEFAULT_TIMEOUT",
    "App",
    "AsyncAuthenticationClient",
    "AsyncRestService",
    "AsyncTransport",
    "AuthenticationClient",
    "BaseAuthenticationClient",
    "BaseRestService",
    "BaseTransport",
    "CacheStorage",
    "MemoryStorage",
    "RestClient",
    "RestService",
    "Retries",
    "SessionStorage",
    "Storage",
    "TimeoutConfig",
    "Transport",
    "authentication_client",
    "errors",
    "etag_of",
    "rest_client",
    "socketio_client",
]

# Reprs, tracebacks and docs show the public path, not the private module.
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, (type, types.FunctionType)):
        _value.__module__ = __name__
del _name, _value

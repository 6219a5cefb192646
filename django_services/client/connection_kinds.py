"""
Deprecated: a remote's `CONNECTION` names a connection class, which opens itself from settings.

    "CONNECTION": "httpx-async"                                 # a built-in connection
    "CONNECTION": "myproject.connections.UrllibConnection"      # a Connection subclass

`RequestsKind`, `HTTPXKind`, `AsyncHTTPXKind` and `AiohttpKind` are the connection classes
themselves (`RequestsConnection`...), and `KINDS` maps the built-in names to them. A subclass
of `ConnectionKind` still opens a remote's connections, with a `DeprecationWarning`; the
connection it opens closes its client itself (`BaseConnection.close()` and `aclose()`).
"""

from __future__ import annotations

import abc
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

from .connections import BUILT_IN, load
from .connections.base import BaseConnection, missing_library

__all__ = ["ConnectionKind"]

_ALIASES = {
    "RequestsKind": "requests",
    "HTTPXKind": "httpx",
    "AsyncHTTPXKind": "httpx-async",
    "AiohttpKind": "aiohttp",
}


class ConnectionKind(abc.ABC):
    """
    Deprecated: opens the connections of remotes that name it in `CONNECTION`.

    Subclass `Connection` or `AsyncConnection` instead and define `create_client()` (or `open()`).
    """

    name: ClassVar[str] = ""
    is_async: ClassVar[bool] = False
    library: ClassVar[str | None] = None
    extra: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        warnings.warn(
            f"{cls.__qualname__}: ConnectionKind is deprecated. A remote's CONNECTION names a "
            "Connection subclass, whose create_client() makes the HTTP library's client.",
            DeprecationWarning,
            stacklevel=2,
        )

    @abc.abstractmethod
    def open(
        self, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> BaseConnection:
        """Return a new connection to the services under `base_url`."""

    def option_names(self) -> frozenset[str] | None:
        """The `OPTIONS` keys (besides `headers`) this kind accepts; `None` accepts any."""
        return None

    def missing_library(self) -> str | None:
        """Why the kind can not be used here (its library is not installed), or `None`."""
        return missing_library(self.library, self.extra)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def __getattr__(name: str) -> Any:
    if name in _ALIASES:
        return load(_ALIASES[name])
    if name == "KINDS":
        return {kind: load(kind) for kind in BUILT_IN}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

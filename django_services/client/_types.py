"""
What one layer of the client asks of the layer above it, as protocols, so imports go one way.

    services -> transports -> app -> authentication -> remotes

A service sends through its connection, a transport (`ServiceConnection`), and, when it belongs
to one, its app (`ServiceApp`); a transport configures an app (`ConfiguredApp`); an
authentication client calls the services of its app (`AuthenticatedApp`). `App` and
`BaseTransport` have them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ._flow import FlowTransport

if TYPE_CHECKING:
    from ._base import Request

__all__ = ["AuthenticatedApp", "ConfiguredApp", "ServiceApp", "ServiceConnection"]


class ServiceConnection(FlowTransport, Protocol):
    """The connection of a service: where the services live, and how a call is run."""

    base: str
    headers: Mapping[str, Any]

    @property
    def is_async(self) -> bool: ...


class ServiceApp(Protocol):
    """The app a service is registered with: the headers it adds, and how it sends a call."""

    def get_request_headers(self, path: str, method: str) -> Mapping[str, str]: ...

    def send(self, service: Any, request: Request) -> Any: ...


class ConfiguredApp(Protocol):
    """An app a connection becomes the default provider of (`app.connection`)."""

    connection: Any


class AuthenticatedApp(Protocol):
    """The app an authentication client logs in: its services, and whether they are async."""

    connection: Any
    authentication: Any

    @property
    def is_async(self) -> bool: ...

    def service(self, path: str) -> Any: ...

"""
The client app of a remote: the services its `SERVICES` declares, its bridge's credentials on
each call, and the trace of the request the calls are made for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from . import telemetry
from .app import App

if TYPE_CHECKING:
    from ..clock import Clock
    from ._base import Request
    from ._flow import Flow
    from .bridges import Bridge
    from .remote_settings import RemoteConfig
    from .services import BaseRestService
    from .transports.base import BaseTransport

__all__ = ["RemoteApp"]


class Remote(Protocol):
    """What a remote's app reads of its remote (`remotes.Remote`)."""

    @property
    def alias(self) -> str: ...
    @property
    def bridge(self) -> Bridge: ...
    @property
    def clock(self) -> Clock | None: ...
    @property
    def config(self) -> RemoteConfig: ...


class RemoteApp(App):
    """
    The client app of a remote in one thread or event loop, or of a request bound to it.

    Its services are those of the remote's `SERVICES` (class, methods, if_match), made on first
    use; its bridge adds the credentials to each call and wraps it (a login, a retry after a 401).
    """

    def __init__(
        self,
        remote: Remote,
        connection: BaseTransport,
        credentials: Any = None,
        trace: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.remote = remote
        self.credentials = credentials
        #: The trace headers of the incoming request the calls are made for.
        self.trace: Mapping[str, str] = trace or {}
        self.configure(connection)
        self.clock = remote.clock

    @property
    def bridge(self) -> Bridge:
        return self.remote.bridge

    def default_service(self, path: str) -> Any:
        """A new service for `path`, of the class and with the methods `SERVICES` declares."""
        assert self.connection is not None
        options = self.remote.config.services.get(path)
        cls = (options and options.service_class) or self.connection.service_class
        if options is None:
            return cls(path, connection=self.connection)
        return cls(
            path, connection=self.connection, methods=options.methods, if_match=options.if_match
        )

    def get_request_headers(self, path: str, method: str) -> dict[str, str]:
        return self.bridge.request_headers(self.credentials, method)

    def send_flow(self, service: BaseRestService, request: Request) -> Flow:
        # The services of a remote's app are made on the remote's connections.
        connection = cast("BaseTransport", service.connection)
        if telemetry.recording():
            return telemetry.observed(
                self.remote.alias,
                service.name,
                request,
                self.trace,
                self.remote.config.propagate,
                lambda message: self.bridge.flow(message, connection),
            )
        if self.trace and self.remote.config.propagate:
            request = telemetry.with_trace(request, self.trace)
        return self.bridge.flow(request, connection)

    def __repr__(self) -> str:
        return f"<RemoteApp {self.remote.alias!r} services={sorted(self.services)!r}>"

"""
`App`: the client application, as in Feathers.

    app = App()
    app.configure(rest_client("https://api.example.com").requests(requests.Session()))
    app.configure(authentication_client())
    app.use("todos", app.connection.service("todos"), methods=["find", "create", "markAllComplete"])
    app.authenticate({"strategy": "local", "email": "ada@example.com", "password": "secret"})
    app.service("todos").markAllComplete({})

`app.service(path)` returns the registered service, or registers the connection's default
service for that path. Services of an app send the authentication header once logged in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..clock import Clock
from ._flow import Flow, call_flow, drive
from .services import BaseRestService

if TYPE_CHECKING:
    from ._base import Request
    from .authentication import BaseAuthenticationClient
    from .transports.base import BaseTransport

__all__ = ["App"]


def _strip_slashes(path: str) -> str:
    if not isinstance(path, str):
        raise TypeError(f"A service path must be a string, not {type(path).__name__}.")
    return path.strip("/")


class App:
    """
    A client application: its services, its connection (REST or socket.io) and its authentication.

    Attributes set by `configure()`: `connection` (the connection) and `authentication` (the
    authentication client).
    """

    def __init__(self) -> None:
        self.services: dict[str, Any] = {}
        self.connection: BaseTransport | None = None
        self.authentication: BaseAuthenticationClient | None = None
        #: The clock the calls' flows run on; `None` for the clock of each service's connection.
        self.clock: Clock | None = None

    @property
    def is_async(self) -> bool:
        """Whether the app's services are coroutines (an async connection is configured)."""
        return bool(self.connection is not None and self.connection.is_async)

    def configure(self, callback: Callable[[App], Any]) -> App:
        """Run `callback(app)`, e.g. a connection or `authentication_client()`; return the app."""
        callback(self)
        return self

    def use(
        self,
        path: str,
        service: Any,
        *,
        methods: Iterable[str] | None = None,
        if_match: bool | str | None = None,
    ) -> App:
        """
        Register `service` at `path`, exposing `methods` (custom ones included).

        A remote service is registered as a copy that belongs to this app; any other object
        (a local service) is registered as it is. With `if_match` (`True` for the answers'
        ETags, or the name of the records' version field), its `update`, `patch` and `remove`
        of a record it read send that version as `If-Match` (see `preconditions`).
        """
        path = _strip_slashes(path)
        if isinstance(service, BaseRestService):
            service = service.bind(self, methods=methods, if_match=if_match)
        elif methods is not None or if_match is not None:
            raise TypeError("methods and if_match can only be declared for remote services.")
        self.services[path] = service
        return self

    def unuse(self, path: str) -> Any:
        """Unregister the service at `path` and return it."""
        return self.services.pop(_strip_slashes(path))

    def service(self, path: str) -> Any:
        """Return the service at `path`, registering the connection's default one if needed."""
        path = _strip_slashes(path)
        if path not in self.services:
            self.use(path, self.default_service(path))
        return self.services[path]

    def default_service(self, path: str) -> Any:
        """Return a new service for `path` on the configured connection."""
        if self.connection is None:
            raise LookupError(
                f"Can not find service '{path}': configure a connection first, "
                f"e.g. app.configure(rest_client(url).requests(session))."
            )
        return self.connection.service(path)

    def get_request_headers(self, path: str, method: str) -> dict[str, str]:
        """Return the headers this app adds to a call of `method` on the service at `path`."""
        if self.authentication is None:
            return {}
        return self.authentication.get_request_headers(path, method)

    def send(self, service: BaseRestService, request: Request) -> Any:
        """
        Send a call one of the app's services described, and return its result.

        With an async connection the result is a coroutine. It runs `send_flow()` on the
        service's connection, with the connection's clock.
        """
        return drive(self.send_flow(service, request), service.connection, clock=self.clock)

    def send_flow(self, service: BaseRestService, request: Request) -> Flow:
        """
        The flow of a call of one of the app's services (see `_flow.py`). Override to wrap
        every call of the app's services, the authentication's own included (logging in
        first, trying again after a 401, measuring). With authentication configured, its
        client sends it (refreshing an expired token).
        """
        if self.authentication is not None:
            return self.authentication.send_flow(service, request)
        return call_flow(service.connection, request)

    def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """Log in with `data` (see `AuthenticationClient.authenticate`)."""
        return self._authentication().authenticate(data, params)

    def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Log in again with the stored token (see `AuthenticationClient.re_authenticate`)."""
        return self._authentication().re_authenticate(force, strategy, params)

    def logout(self) -> Any:
        """Log out and forget the token (see `AuthenticationClient.logout`)."""
        return self._authentication().logout()

    def _authentication(self) -> Any:
        if self.authentication is None:
            raise RuntimeError(
                "Authentication is not configured: app.configure(authentication_client())."
            )
        return self.authentication

    def __repr__(self) -> str:
        return f"<App services={sorted(self.services)!r}>"

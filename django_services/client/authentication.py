"""
The authentication client: log in to a Feathers server and send the token with every call.

    app.configure(authentication_client(storage=SessionStorage(request.session)))
    app.authenticate({"strategy": "local", "email": "ada@example.com", "password": "secret"})
    app.service("messages").find()     # sends Authorization: Bearer <accessToken>
    app.logout()

When the server answers a `refreshToken` (its `refresh` strategy is on), it is kept too: a call
answered 401 because the access token expired refreshes once (one refresh for every call that
found the same token expired) and is sent again; over socket.io the client refreshes before the
token expires, so the server never disconnects the socket for it.

The token is kept in a storage (see `storage.py`): `MemoryStorage` by default, one per app.
With an async connection, `authenticate`, `re_authenticate` and `logout` are coroutines.

Each of them is written once, as a flow: a generator that yields the steps to take (a call of
the authentication service, a storage operation, another method of the client) and receives
their results, or has their error thrown into it. `AuthenticationClient` runs the steps as they
are; `AsyncAuthenticationClient` awaits them. So the two cannot drift apart.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import FeathersError, NotAuthenticated
from .refresh import AsyncRefresh, RefreshSteps, RefreshTimer, SyncRefresh, is_expiry
from .storage import CacheStorage, MemoryStorage, SessionStorage, Storage

if TYPE_CHECKING:
    from ._types import AuthenticatedApp

__all__ = [
    "AsyncAuthenticationClient",
    "AuthenticationClient",
    "BaseAuthenticationClient",
    "CacheStorage",
    "MemoryStorage",
    "SessionStorage",
    "Storage",
    "authentication_client",
]

#: A step of a flow: called with no arguments; the async client awaits what it returns.
Step = Callable[[], Any]
#: An authentication flow: yields steps, receives their results, returns the method's result.
Flow = Generator[Step, Any, Any]


class BaseAuthenticationClient(RefreshSteps):
    """
    What the sync and async authentication clients share: options, state and the header.

    **Parameters:**

    * **app** - the `App` to authenticate.
    * **storage_key** - the key of the access token in the storage.
    * **storage** - where the token is kept (a new `MemoryStorage` when not given).
    * **path** - the authentication service.
    * **header**, **scheme** - the header that carries the token: `Authorization: Bearer <t>`.
    * **jwt_strategy** - the strategy `re_authenticate` uses with the stored token.
    * **refresh_storage_key**, **refresh_strategy** - where the refresh token is kept, and the
      strategy `refresh()` sends it with.
    * **refresh_margin** - over socket.io, how many seconds before the access token expires
      the client refreshes it.
    """

    def __init__(
        self,
        app: AuthenticatedApp,
        *,
        storage_key: str = "feathers-jwt",
        storage: Storage | None = None,
        path: str = "/authentication",
        header: str = "Authorization",
        scheme: str = "Bearer",
        jwt_strategy: str = "jwt",
        refresh_storage_key: str = "feathers-refresh",
        refresh_strategy: str = "refresh",
        refresh_margin: float = 60,
    ) -> None:
        self.app = app
        self.storage_key = storage_key
        self.storage: Storage = MemoryStorage() if storage is None else storage
        self.path = path.strip("/")
        self.header = header
        self.scheme = scheme
        self.jwt_strategy = jwt_strategy
        self.refresh_storage_key = refresh_storage_key
        self.refresh_strategy = refresh_strategy
        self.refresh_margin = refresh_margin
        self.timer = RefreshTimer(self.refresh, asynchronous=app.is_async)
        #: The server's answer to the last successful authentication (`None` when logged out).
        self.result: Any = None

    @property
    def authenticated(self) -> bool:
        """Whether the app is logged in."""
        return self.result is not None

    @property
    def service(self) -> Any:
        """The authentication service of the app."""
        return self.app.service(self.path)

    def get_request_headers(self, path: str, method: str) -> dict[str, str]:
        """The header carrying the token, for every call except logging in itself."""
        if path == self.path and method == "create":
            return {}
        token = self.result.get("accessToken") if isinstance(self.result, Mapping) else None
        if not token:
            return {}
        return {self.header: f"{self.scheme} {token}"}

    def removes_token(self, error: FeathersError) -> bool:
        """Whether `error` makes the stored token useless: codes 401 to 407."""
        return isinstance(error.code, int) and 400 < error.code < 408

    def access_token_of(self, result: Any) -> str:
        """Return the access token of an authentication result."""
        token = result.get("accessToken") if isinstance(result, Mapping) else None
        if not isinstance(token, str) or not token:
            raise NotAuthenticated("The authentication result has no accessToken.", data=result)
        return token

    def reset(self) -> None:
        """Forget the current authentication result (the stored token stays)."""
        self.result = None

    def authenticate_flow(self, data: Any, params: Any) -> Flow:
        """The steps of `authenticate()`."""
        if data is None:
            return (yield functools.partial(self.re_authenticate, params=params))
        try:
            result = yield functools.partial(self.service.create, data, params)
            token = self.access_token_of(result)
            yield functools.partial(self.set_access_token, token)
            refresh_token = result.get("refreshToken")
            if isinstance(refresh_token, str) and refresh_token:
                yield functools.partial(self.set_refresh_token, refresh_token)
        except FeathersError as error:
            yield functools.partial(self.handle_error, error)
            raise
        self.result = result
        if isinstance(refresh_token, str) and refresh_token and self.uses_socket():
            self.timer.schedule(token, self.refresh_margin)
        return result

    def re_authenticate_flow(self, force: bool, strategy: str | None, params: Any) -> Flow:
        """The steps of `re_authenticate()`."""
        if self.result is not None and not force:
            return self.result
        token = yield self.get_access_token
        if not token:
            error = NotAuthenticated("No accessToken found in storage")
            yield functools.partial(self.handle_error, error)
            raise error
        data = {"strategy": strategy or self.jwt_strategy, "accessToken": token}
        try:
            return (yield functools.partial(self.authenticate, data, params))
        except FeathersError as error:
            # An expired token is what a stored refresh token is for.
            if not is_expiry(error) or not (yield self.get_refresh_token):
                raise
        return (yield functools.partial(self.refresh, None, params))

    def logout_flow(self) -> Flow:
        """The steps of `logout()`."""
        self.timer.cancel()
        if self.result is None:
            yield self.remove_access_token
            yield self.remove_refresh_token
            return None
        try:
            result = yield functools.partial(self.service.remove, None)
        except FeathersError as error:
            yield functools.partial(self.handle_error, error)
            if self.removes_token(error):
                return None
            raise
        yield self.remove_access_token
        yield self.remove_refresh_token
        self.reset()
        return result

    def handle_error_flow(self, error: FeathersError) -> Flow:
        """The steps of `handle_error()`."""
        if self.removes_token(error):
            yield self.remove_access_token
        self.timer.cancel()
        self.reset()

    # Each client defines these, blocking or as coroutines; the flows yield them as steps.
    re_authenticate: Callable[..., Any]
    authenticate: Callable[..., Any]
    handle_error: Callable[[FeathersError], Any]
    get_access_token: Callable[[], Any]
    set_access_token: Callable[[str], Any]
    remove_access_token: Callable[[], Any]
    refresh: Callable[..., Any]
    send: Callable[..., Any]
    set_refresh_token: Callable[[str], Any]
    remove_refresh_token: Callable[[], Any]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} path={self.path!r} authenticated={self.authenticated}>"


class AuthenticationClient(SyncRefresh, BaseAuthenticationClient):
    """Authenticates an app whose services block until the result arrives."""

    run_flow = staticmethod(lambda flow: _run(flow))

    def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        return _run(self.authenticate_flow(data, params))

    def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        return _run(self.re_authenticate_flow(force, strategy, params))

    def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        return _run(self.logout_flow())

    def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        _run(self.handle_error_flow(error))

    def get_access_token(self) -> Any:
        """Read the stored token."""
        return self.storage.get(self.storage_key)

    def set_access_token(self, token: str) -> None:
        """Store the token."""
        self.storage.set(self.storage_key, token)

    def remove_access_token(self) -> None:
        """Delete the stored token."""
        self.storage.delete(self.storage_key)


class AsyncAuthenticationClient(AsyncRefresh, BaseAuthenticationClient):
    """Authenticates an app whose services are coroutines; its methods are coroutines too."""

    run_flow = staticmethod(lambda flow: _arun(flow))

    async def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        return await _arun(self.authenticate_flow(data, params))

    async def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        return await _arun(self.re_authenticate_flow(force, strategy, params))

    async def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        return await _arun(self.logout_flow())

    async def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        await _arun(self.handle_error_flow(error))

    async def get_access_token(self) -> Any:
        """Read the stored token."""
        return await self._storage("get", self.storage_key)

    async def set_access_token(self, token: str) -> None:
        """Store the token."""
        await self._storage("set", self.storage_key, token)

    async def remove_access_token(self) -> None:
        """Delete the stored token."""
        await self._storage("delete", self.storage_key)

    async def _storage(self, operation: str, *args: Any) -> Any:
        # A storage without the async twin (a plain object with get/set/delete) is called as is.
        async_operation = getattr(self.storage, f"a{operation}", None)
        if async_operation is not None:
            return await async_operation(*args)
        return getattr(self.storage, operation)(*args)


def _run(flow: Flow) -> Any:
    """Take the steps of `flow` as they are; return its result or raise its error."""
    outcome: Any = None
    error: Exception | None = None
    while True:
        try:
            step = flow.send(outcome) if error is None else flow.throw(error)
        except StopIteration as done:
            return done.value
        outcome, error = None, None
        try:
            outcome = step()
        except Exception as exc:  # the flow handles it, or it goes on to the caller
            error = exc


async def _arun(flow: Flow) -> Any:
    """Take the steps of `flow`, awaiting them; return its result or raise its error."""
    outcome: Any = None
    error: Exception | None = None
    while True:
        try:
            step = flow.send(outcome) if error is None else flow.throw(error)
        except StopIteration as done:
            return done.value
        outcome, error = None, None
        try:
            outcome = step()
            if inspect.isawaitable(outcome):
                outcome = await outcome
        except Exception as exc:  # the flow handles it, or it goes on to the caller
            error = exc


def authentication_client(
    *,
    storage_key: str = "feathers-jwt",
    storage: Storage | None = None,
    path: str = "/authentication",
    header: str = "Authorization",
    scheme: str = "Bearer",
    jwt_strategy: str = "jwt",
    refresh_storage_key: str = "feathers-refresh",
    refresh_strategy: str = "refresh",
    refresh_margin: float = 60,
    client_class: type[BaseAuthenticationClient] | None = None,
) -> Callable[[AuthenticatedApp], None]:
    """
    Return what `app.configure()` takes to add authentication to an app.

    Configure the REST connection first: it decides whether the client is sync or async.
    Each app gets its own client, and its own `MemoryStorage` unless `storage` is given.
    """

    def configure(app: AuthenticatedApp) -> None:
        if app.connection is None:
            raise RuntimeError(
                "Configure a REST connection before authentication_client(): "
                "app.configure(rest_client(url).requests(session))."
            )
        cls = client_class or (AsyncAuthenticationClient if app.is_async else AuthenticationClient)
        app.authentication = cls(
            app,
            storage_key=storage_key,
            storage=storage,
            path=path,
            header=header,
            scheme=scheme,
            jwt_strategy=jwt_strategy,
            refresh_storage_key=refresh_storage_key,
            refresh_strategy=refresh_strategy,
            refresh_margin=refresh_margin,
        )

    return configure

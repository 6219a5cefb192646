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

Each of them is written once, as a flow of the client's one flow protocol (`_flow.py`): the
calls of the authentication service and the storage operations are its steps.
`AuthenticationClient` takes them blocking, `AsyncAuthenticationClient` awaits them, so the two
cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import clock as package_clock
from ..clock import Clock
from ..errors import FeathersError, NotAuthenticated
from ._flow import Delete, Flow, Load, Save, arun, run
from .refresh import RefreshSteps, RefreshTimer, is_expiry
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
        self.timer = RefreshTimer(
            self.refresh,
            asynchronous=app.is_async,
            clock=getattr(app.connection, "clock", None),
        )
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

    def call_flow(
        self, method: str, *, id: Any = None, data: Any = None, params: Any = None
    ) -> Flow:
        """A call of `method` on the authentication service, as the app sends its calls."""
        service = self.service
        request = service.build_request(method, params, id=id, data=data)
        return (yield from self.app.send_flow(service, request))

    def authenticate_flow(self, data: Any, params: Any) -> Flow:
        """The steps of `authenticate()`."""
        if data is None:
            return (yield from self.re_authenticate_flow(False, None, params))
        try:
            result = yield from self.call_flow("create", data=data, params=params)
            token = self.access_token_of(result)
            yield Save(self.storage, self.storage_key, token)
            refresh_token = result.get("refreshToken")
            if isinstance(refresh_token, str) and refresh_token:
                yield Save(self.storage, self.refresh_storage_key, refresh_token)
        except FeathersError as error:
            yield from self.handle_error_flow(error)
            raise
        self.result = result
        if isinstance(refresh_token, str) and refresh_token and self.uses_socket():
            self.timer.schedule(token, self.refresh_margin)
        return result

    def re_authenticate_flow(self, force: bool, strategy: str | None, params: Any) -> Flow:
        """The steps of `re_authenticate()`."""
        if self.result is not None and not force:
            return self.result
        token = yield Load(self.storage, self.storage_key)
        if not token:
            error = NotAuthenticated("No accessToken found in storage")
            yield from self.handle_error_flow(error)
            raise error
        data = {"strategy": strategy or self.jwt_strategy, "accessToken": token}
        try:
            return (yield from self.authenticate_flow(data, params))
        except FeathersError as error:
            # An expired token is what a stored refresh token is for.
            if not is_expiry(error) or not (yield Load(self.storage, self.refresh_storage_key)):
                raise
        return (yield from self.refresh_flow(None, params))

    def logout_flow(self) -> Flow:
        """The steps of `logout()`."""
        self.timer.cancel()
        if self.result is None:
            yield Delete(self.storage, self.storage_key)
            yield Delete(self.storage, self.refresh_storage_key)
            return None
        try:
            result = yield from self.call_flow("remove", id=None)
        except FeathersError as error:
            yield from self.handle_error_flow(error)
            if self.removes_token(error):
                return None
            raise
        yield Delete(self.storage, self.storage_key)
        yield Delete(self.storage, self.refresh_storage_key)
        self.reset()
        return result

    def handle_error_flow(self, error: FeathersError) -> Flow:
        """The steps of `handle_error()`."""
        if self.removes_token(error):
            yield Delete(self.storage, self.storage_key)
        self.timer.cancel()
        self.reset()

    @property
    def clock(self) -> Clock:
        """The clock the flows of this client run on: its connection's, else the package's."""
        return getattr(self.app.connection, "clock", None) or package_clock.current()

    #: Defined by each client, blocking or as a coroutine; the refresh timer calls it.
    refresh: Callable[..., Any]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} path={self.path!r} authenticated={self.authenticated}>"


class AuthenticationClient(BaseAuthenticationClient):
    """Authenticates an app whose services block until the result arrives."""

    def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        return run(self.authenticate_flow(data, params), clock=self.clock)

    def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        return run(self.re_authenticate_flow(force, strategy, params), clock=self.clock)

    def refresh(self, stale: str | None = None, params: Any = None) -> Any:
        """Trade the stored refresh token for new tokens (none when `stale` was replaced)."""
        return run(self.refresh_flow(stale, params), clock=self.clock)

    def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        return run(self.logout_flow(), clock=self.clock)

    def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        run(self.handle_error_flow(error), clock=self.clock)

    def get_access_token(self) -> Any:
        """Read the stored token."""
        return self.storage.get(self.storage_key)

    def set_access_token(self, token: str) -> None:
        """Store the token."""
        self.storage.set(self.storage_key, token)

    def remove_access_token(self) -> None:
        """Delete the stored token."""
        self.storage.delete(self.storage_key)

    def get_refresh_token(self) -> Any:
        """Read the stored refresh token."""
        return self.storage.get(self.refresh_storage_key)

    def set_refresh_token(self, token: str) -> None:
        """Store the refresh token."""
        self.storage.set(self.refresh_storage_key, token)

    def remove_refresh_token(self) -> None:
        """Delete the stored refresh token."""
        self.storage.delete(self.refresh_storage_key)


class AsyncAuthenticationClient(BaseAuthenticationClient):
    """Authenticates an app whose services are coroutines; its methods are coroutines too."""

    async def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        return await arun(self.authenticate_flow(data, params), clock=self.clock)

    async def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        return await arun(self.re_authenticate_flow(force, strategy, params), clock=self.clock)

    async def refresh(self, stale: str | None = None, params: Any = None) -> Any:
        """Trade the stored refresh token for new tokens (none when `stale` was replaced)."""
        return await arun(self.refresh_flow(stale, params), clock=self.clock)

    async def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        return await arun(self.logout_flow(), clock=self.clock)

    async def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        await arun(self.handle_error_flow(error), clock=self.clock)

    async def get_access_token(self) -> Any:
        """Read the stored token."""
        return await arun(_load(self.storage, self.storage_key))

    async def set_access_token(self, token: str) -> None:
        """Store the token."""
        await arun(_save(self.storage, self.storage_key, token))

    async def remove_access_token(self) -> None:
        """Delete the stored token."""
        await arun(_delete(self.storage, self.storage_key))

    async def get_refresh_token(self) -> Any:
        """Read the stored refresh token."""
        return await arun(_load(self.storage, self.refresh_storage_key))

    async def set_refresh_token(self, token: str) -> None:
        """Store the refresh token."""
        await arun(_save(self.storage, self.refresh_storage_key, token))

    async def remove_refresh_token(self) -> None:
        """Delete the stored refresh token."""
        await arun(_delete(self.storage, self.refresh_storage_key))


def _load(storage: Storage, key: str) -> Flow:
    return (yield Load(storage, key))


def _save(storage: Storage, key: str, value: Any) -> Flow:
    yield Save(storage, key, value)


def _delete(storage: Storage, key: str) -> Flow:
    yield Delete(storage, key)


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

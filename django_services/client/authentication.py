"""
The authentication client: log in to a Feathers server and send the token with every call.

    app.configure(authentication_client(storage=SessionStorage(request.session)))
    app.authenticate({"strategy": "local", "email": "ada@example.com", "password": "secret"})
    app.service("messages").find()     # sends Authorization: Bearer <accessToken>
    app.logout()

The token is kept in a storage: any object with `get(key)`, `set(key, value)` and
`delete(key)`, plus `aget`/`aset`/`adelete` for async use. A Django cache is one as it is (it
keeps the token for its default `TIMEOUT`). `MemoryStorage` (the default, one per app),
`SessionStorage` (a Django session) and `CacheStorage` (a Django cache alias, shared by every
process using that cache, the token kept until deleted) are provided.
With an async connection, `authenticate`, `re_authenticate` and `logout` are coroutines.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import FeathersError, NotAuthenticated

if TYPE_CHECKING:
    from .app import App

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


class Storage(Protocol):
    """Where the access token is kept between calls (and, for shared storages, processes)."""

    def get(self, key: str) -> Any: ...

    def set(self, key: str, value: Any) -> Any: ...

    def delete(self, key: str) -> Any: ...


class MemoryStorage:
    """Keeps values in this object only: nothing is shared with another app or process."""

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            return self._values.get(key)

    def set(self, key: str, value: Any) -> None:
        with self._lock:
            self._values[key] = value

    def delete(self, key: str) -> None:
        with self._lock:
            self._values.pop(key, None)

    async def aget(self, key: str) -> Any:
        return self.get(key)

    async def aset(self, key: str, value: Any) -> None:
        self.set(key, value)

    async def adelete(self, key: str) -> None:
        self.delete(key)


class SessionStorage:
    """Keeps values in a Django session (`request.session`), saved with the response."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def get(self, key: str) -> Any:
        return self.session.get(key)

    def set(self, key: str, value: Any) -> None:
        self.session[key] = value

    def delete(self, key: str) -> None:
        self.session.pop(key, None)

    async def aget(self, key: str) -> Any:
        return await self.session.aget(key)

    async def aset(self, key: str, value: Any) -> None:
        await self.session.aset(key, value)

    async def adelete(self, key: str) -> None:
        await self.session.apop(key, None)


class CacheStorage:
    """
    Keeps values in a Django cache, so every process using that cache shares them.

    **Parameters:**

    * **alias** - the cache in `CACHES`.
    * **timeout** - seconds a value is kept; `None` (the default) keeps it until deleted.
    """

    def __init__(self, alias: str = "default", *, timeout: float | None = None) -> None:
        self.alias = alias
        self.timeout = timeout

    @property
    def cache(self) -> Any:
        """The cache itself; looked up on each use, as Django's caches are per thread."""
        from django.core.cache import caches

        return caches[self.alias]

    def get(self, key: str) -> Any:
        return self.cache.get(key)

    def set(self, key: str, value: Any) -> None:
        self.cache.set(key, value, self.timeout)

    def delete(self, key: str) -> None:
        self.cache.delete(key)

    async def aget(self, key: str) -> Any:
        return await self.cache.aget(key)

    async def aset(self, key: str, value: Any) -> None:
        await self.cache.aset(key, value, self.timeout)

    async def adelete(self, key: str) -> None:
        await self.cache.adelete(key)


class BaseAuthenticationClient:
    """
    What the sync and async authentication clients share: options, state and the header.

    **Parameters:**

    * **app** - the `App` to authenticate.
    * **storage_key** - the key of the access token in the storage.
    * **storage** - where the token is kept (a new `MemoryStorage` when not given).
    * **path** - the authentication service.
    * **header**, **scheme** - the header that carries the token: `Authorization: Bearer <t>`.
    * **jwt_strategy** - the strategy `re_authenticate` uses with the stored token.
    """

    def __init__(
        self,
        app: App,
        *,
        storage_key: str = "feathers-jwt",
        storage: Storage | None = None,
        path: str = "/authentication",
        header: str = "Authorization",
        scheme: str = "Bearer",
        jwt_strategy: str = "jwt",
    ) -> None:
        self.app = app
        self.storage_key = storage_key
        self.storage: Storage = MemoryStorage() if storage is None else storage
        self.path = path.strip("/")
        self.header = header
        self.scheme = scheme
        self.jwt_strategy = jwt_strategy
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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} path={self.path!r} authenticated={self.authenticated}>"


class AuthenticationClient(BaseAuthenticationClient):
    """Authenticates an app whose services block until the result arrives."""

    def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        if data is None:
            return self.re_authenticate(params=params)
        try:
            result = self.service.create(data, params)
            self.set_access_token(self.access_token_of(result))
        except FeathersError as error:
            self.handle_error(error)
            raise
        self.result = result
        return result

    def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        if self.result is not None and not force:
            return self.result
        token = self.get_access_token()
        if not token:
            error = NotAuthenticated("No accessToken found in storage")
            self.handle_error(error)
            raise error
        data = {"strategy": strategy or self.jwt_strategy, "accessToken": token}
        return self.authenticate(data, params)

    def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        if self.result is None:
            self.remove_access_token()
            return None
        try:
            result = self.service.remove(None)
        except FeathersError as error:
            self.handle_error(error)
            if self.removes_token(error):
                return None
            raise
        self.remove_access_token()
        self.reset()
        return result

    def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        if self.removes_token(error):
            self.remove_access_token()
        self.reset()

    def get_access_token(self) -> Any:
        """Read the stored token."""
        return self.storage.get(self.storage_key)

    def set_access_token(self, token: str) -> None:
        """Store the token."""
        self.storage.set(self.storage_key, token)

    def remove_access_token(self) -> None:
        """Delete the stored token."""
        self.storage.delete(self.storage_key)


class AsyncAuthenticationClient(BaseAuthenticationClient):
    """Authenticates an app whose services are coroutines; its methods are coroutines too."""

    async def authenticate(self, data: Any = None, params: Any = None) -> Any:
        """
        Post `data` to the authentication service and keep the token it returns.

        Without `data`, the same as `re_authenticate()`. Returns the server's result.
        """
        if data is None:
            return await self.re_authenticate(params=params)
        try:
            result = await self.service.create(data, params)
            await self.set_access_token(self.access_token_of(result))
        except FeathersError as error:
            await self.handle_error(error)
            raise
        self.result = result
        return result

    async def re_authenticate(
        self, force: bool = False, strategy: str | None = None, params: Any = None
    ) -> Any:
        """Return the current result, or (when none, or `force`) log in with the stored token."""
        if self.result is not None and not force:
            return self.result
        token = await self.get_access_token()
        if not token:
            error = NotAuthenticated("No accessToken found in storage")
            await self.handle_error(error)
            raise error
        data = {"strategy": strategy or self.jwt_strategy, "accessToken": token}
        return await self.authenticate(data, params)

    async def logout(self) -> Any:
        """Log out on the server and forget the token; `None` when not logged in."""
        if self.result is None:
            await self.remove_access_token()
            return None
        try:
            result = await self.service.remove(None)
        except FeathersError as error:
            await self.handle_error(error)
            if self.removes_token(error):
                return None
            raise
        await self.remove_access_token()
        self.reset()
        return result

    async def handle_error(self, error: FeathersError) -> None:
        """Forget the result; remove the stored token too when the error says it is useless."""
        if self.removes_token(error):
            await self.remove_access_token()
        self.reset()

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


def authentication_client(
    *,
    storage_key: str = "feathers-jwt",
    storage: Storage | None = None,
    path: str = "/authentication",
    header: str = "Authorization",
    scheme: str = "Bearer",
    jwt_strategy: str = "jwt",
    client_class: type[BaseAuthenticationClient] | None = None,
) -> Callable[[App], None]:
    """
    Return what `app.configure()` takes to add authentication to an app.

    Configure the REST connection first: it decides whether the client is sync or async.
    Each app gets its own client, and its own `MemoryStorage` unless `storage` is given.
    """

    def configure(app: App) -> None:
        if app.rest is None:
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
        )

    return configure

"""
Where an authentication client keeps the access token: any object with `get(key)`,
`set(key, value)` and `delete(key)`, plus `aget`/`aset`/`adelete` for async use.

    authentication_client(storage=SessionStorage(request.session))
    authentication_client(storage=CacheStorage("default"))     # shared by every process

A Django cache is one as it is (it keeps the token for its default `TIMEOUT`). `MemoryStorage`
keeps values in one object; `SessionStorage` and `CacheStorage` need a configured project.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

__all__ = ["CacheStorage", "MemoryStorage", "SessionStorage", "Storage"]


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

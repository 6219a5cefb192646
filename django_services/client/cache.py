"""
`HTTPCache`: a REST connection's reads revalidated with their ETag, answered from a local copy
on `304` (RFC 9111, with hishel's state machine: the `cache` extra).

    cache = HTTPCache()                                         # in memory; or HTTPCache(path=...)
    app.configure(rest_client(url).requests(session, options={"cache": cache}))
    todos.get(7)            # 200, stored with its ETag
    todos.get(7)            # If-None-Match: "3"; the server's 304 is answered from the copy

Every read asks the server: the stored copy is used only when the server answers `304`, never
on the strength of a `max-age` (a service's records change under other users' writes). The
copies are private to a credential: the cache key is the URL with the request's
`Authorization` and `Cookie` headers, so a user's call never revalidates, let alone reads,
another user's copy. A write (`update`, `patch`, `remove`, a `create`'s `POST`) to a URL drops
the copies of that URL. A call that sends `If-None-Match` or `If-Modified-Since` itself is not
cached: it gets its `NotModified` as without the cache.

It works the same on every REST connection (requests, httpx, httpx-async, aiohttp): it sits
between the client and the connection's `send`, on the bodies the connection has read.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ._base import Request, Response

if TYPE_CHECKING:
    import hishel

__all__ = ["HTTPCache"]

#: Headers that make a response another user's: they are part of the cache key.
PRIVATE_HEADERS = ("authorization", "cookie")
_CONDITIONAL = ("if-none-match", "if-modified-since", "if-match", "if-unmodified-since")
_READS = frozenset({"GET", "HEAD"})


class HTTPCache:
    """
    Stored answers of a connection's reads, revalidated by the server on every read.

    **Parameters:**

    * **path** - a SQLite file to keep the copies in (shared by the processes that name it);
      in memory, for this process, when not given.
    * **max_size** - how many bytes of bodies to keep at most (hishel evicts the oldest).

    One cache may serve several connections (a remote's, one per thread and event loop).
    Needs hishel: `pip install 'django-feathers[cache]'`.
    """

    def __init__(self, path: str | Path | None = None, *, max_size: int | None = 64 * 1024**2):
        import hishel  # noqa: F401 - fails here, where the cache is made, when not installed

        if path is not None and not isinstance(path, (str, Path)):
            raise TypeError(f"path must be a file path, not {type(path).__name__}.")
        if max_size is not None and (
            not isinstance(max_size, int) or isinstance(max_size, bool) or max_size <= 0
        ):
            raise ValueError(f"max_size must be a positive number of bytes, not {max_size!r}.")
        self.path = path
        self.max_size = max_size
        self._storage: hishel.SqliteStorage | None = None
        # One SQLite connection serves every thread: its use is one thread at a time.
        self._lock = threading.RLock()

    @property
    def storage(self) -> hishel.SqliteStorage:
        """hishel's storage of the copies, opened on first use."""
        if self._storage is None:
            with self._lock:
                if self._storage is None:
                    self._storage = self._open_storage()
        return self._storage

    def _open_storage(self) -> hishel.SqliteStorage:
        import hishel

        if self.path is None:
            connection = sqlite3.connect(":memory:", check_same_thread=False)
            return hishel.SqliteStorage(connection=connection, max_size=self.max_size)
        return hishel.SqliteStorage(database_path=self.path, max_size=self.max_size)

    def sending(self, send: Callable[[Request], Any], *, is_async: bool) -> Callable[..., Any]:
        """`send` (a transport's), answering reads from the cache when the server says 304."""
        if is_async:

            async def send_async(request: Request) -> Response:
                return await self.fetch_async(request, send)

            return send_async
        return lambda request: self.fetch(request, send)

    def fetch(self, request: Request, send: Callable[[Request], Response]) -> Response:
        """The response to `request`: sent with `send`, or the stored copy the server kept."""
        if _bypass(request):
            return send(request)
        exchange = self._exchange(request)
        try:
            outgoing = next(exchange)
            while True:
                outgoing = exchange.send(send(outgoing))
        except StopIteration as done:
            return cast(Response, done.value)

    async def fetch_async(
        self, request: Request, send: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """`fetch()` with a coroutine `send`."""
        if _bypass(request):
            return await send(request)
        exchange = self._exchange(request)
        try:
            outgoing = next(exchange)
            while True:
                outgoing = exchange.send(await send(outgoing))
        except StopIteration as done:
            return cast(Response, done.value)

    def _exchange(self, request: Request) -> Generator[Request, Response, Response]:
        # hishel's state machine, for both drivers: yields what to send, is sent the answer.
        with self._lock:
            state, call, wire = self._start(request)
        last: Response | None = None
        while True:
            with self._lock:
                step = self._step(state, call, last)
            if isinstance(step, Response):
                return step
            state, outgoing = step
            if outgoing is not None:
                last = yield wire(outgoing)
                with self._lock:
                    state = self._answered(state, last)

    def close(self) -> None:
        """Close the storage (a memory cache forgets its copies)."""
        with self._lock:
            if self._storage is not None:
                self._storage.close()
                self._storage = None

    def _start(self, request: Request) -> tuple[Any, tuple[Any, str], Callable[[Any], Request]]:
        import hishel

        headers = {name.lower(): value for name, value in request.headers.items()}
        added = "cache-control" not in headers
        if added:
            # The copy is used only once the server has validated it (RFC 9111 5.2.1.4).
            headers["cache-control"] = "no-cache"
        original = hishel.Request(
            method=request.method, url=request.url, headers=hishel.Headers(headers)
        )
        key = _key(request.url, headers)

        def wire(outgoing: hishel.Request) -> Request:
            # The request hishel sends (with its validators), as the connection sends it.
            sent = {name: value for name, value in outgoing.headers.items()}
            if added:
                sent.pop("cache-control", None)
            return Request(
                request.service_method,
                outgoing.method,
                request.url,
                sent,
                request.body,
                request.options,
            )

        options = hishel.CacheOptions(shared=False)
        state = hishel.IdleClient(options=options).next(original, self.storage.get_entries(key))
        return state, (original, key), wire

    def _answered(self, state: Any, response: Response) -> Any:
        """The state after the server's `response` to the request `state` asked to send."""
        import hishel

        if isinstance(state, hishel.NeedRevalidation) and response.status != 304:
            # A full answer replaces the copies it was asked about: every one of them (hishel
            # keeps the last, which would then tie with the new copy, Date for Date).
            for entry in state.revalidating_entries:
                self.storage.remove_entry(entry.id)
        return state.next(_to_hishel(response))

    def _step(
        self, state: Any, call: tuple[Any, str], last: Response | None
    ) -> Response | tuple[Any, Any]:
        """
        Run hishel's states that need no request: the response when there is one, else the
        state waiting for the answer to the request to send (`None` to go on).
        """
        import hishel

        storage = self.storage
        original, key = call
        if isinstance(state, (hishel.CacheMiss, hishel.NeedRevalidation)):
            return state, state.request
        if isinstance(state, hishel.StoreAndUse):
            entry = storage.create_entry(original, state.response, key)
            return _from_hishel(entry.response, last)
        if isinstance(state, hishel.CouldNotBeStored):
            return _from_hishel(state.response, last)
        if isinstance(state, hishel.FromCache):
            return _from_hishel(state.entry.response, last)
        if isinstance(state, hishel.NeedToBeUpdated):
            for entry in state.updating_entries:
                storage.update_headers(entry.id, entry.response.headers)
            return state.next(), None
        if isinstance(state, hishel.InvalidateEntries):
            for entry_id in state.entry_ids:
                storage.remove_entry(entry_id)
            return state.next(), None
        raise AssertionError(f"Unexpected cache state {state!r}.")  # pragma: no cover

    def __repr__(self) -> str:
        return f"<HTTPCache {'memory' if self.path is None else str(self.path)!r}>"


def _bypass(request: Request) -> bool:
    names = {name.lower() for name in request.headers}
    return request.method in _READS and any(name in names for name in _CONDITIONAL)


def _key(url: str, headers: Mapping[str, str]) -> str:
    # Every method shares the key of its URL, so that a write finds the copies it invalidates.
    private = "\0".join(headers.get(name, "") for name in PRIVATE_HEADERS)
    return hashlib.sha256(f"{url}\0{private}".encode()).hexdigest()


def _to_hishel(response: Response) -> hishel.Response:
    import hishel

    headers: dict[str, list[str]] = {}
    items = getattr(response.headers, "multi_items", None) or response.headers.items
    for name, value in items():
        headers.setdefault(name.lower(), []).append(value)
    # The body is stored as read, decoded: the stored headers must not claim an encoding.
    for name in ("content-encoding", "transfer-encoding", "content-length"):
        headers.pop(name, None)
    return hishel.Response(
        status_code=response.status,
        headers=hishel.Headers(headers),
        stream=iter((response.content,)),
    )


def _from_hishel(response: hishel.Response, last: Response | None) -> Response:
    stream = response.stream
    assert stream is None or isinstance(stream, Iterator)
    content = b"".join(stream) if stream is not None else b""
    reason = last.reason if last is not None and last.status == response.status_code else ""
    return Response(
        status=response.status_code,
        reason=reason,
        headers=response.headers,
        content=content,
        raw=last.raw if last is not None else None,
    )

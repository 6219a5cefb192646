"""
What the authentication client needs to refresh its access token: when to, and a timer.

    is_expiry(error)        # a 401 TokenExpiredError: the access token ran out
    token_expiry(token)     # the `exp` of a JWT, read without checking it (it is the server's)
    RefreshTimer(...)       # calls back `margin` seconds before the token expires

and the authentication client's refresh, a mixin of its classes: the flows of a refresh and
of a call sent again after an expiry (`RefreshSteps`), which both clients run.

A socket.io server disconnects a socket when the token it logged in with expires, so the
authentication client of a socket connection refreshes before then, on a `RefreshTimer`
(a thread's timer for blocking clients, the event loop's for async ones).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import jwt

from .. import clock as package_clock
from ..clock import Clock
from ..errors import FeathersError, NotAuthenticated
from ._base import merge_headers
from ._flow import Acquire, Delete, Flow, Load, Release, call_flow
from .transports.socket_call import SocketCall

if TYPE_CHECKING:
    from ._base import Request

__all__ = [
    "RefreshSteps",
    "RefreshTimer",
    "is_expiry",
    "token_expiry",
]

#: The `data.name` of the 401 a server answers for an expired token.
TOKEN_EXPIRED = "TokenExpiredError"


def is_expiry(error: FeathersError) -> bool:
    """Whether `error` is the 401 of an expired access token (`data.name` TokenExpiredError)."""
    data = error.data if isinstance(error.data, Mapping) else {}
    return error.code == 401 and data.get("name") == TOKEN_EXPIRED


def _claim(token: Any, name: str) -> Any:
    """A claim of a JWT, read without checking its signature; None without it."""
    try:
        payload = jwt.decode(str(token), options={"verify_signature": False})
    except jwt.PyJWTError:
        return None
    return payload.get(name) if isinstance(payload, Mapping) else None


def token_expiry(token: Any) -> float | None:
    """The `exp` of a JWT, read without checking its signature; None without one."""
    expiry = _claim(token, "exp")
    if isinstance(expiry, bool) or not isinstance(expiry, (int, float)):
        return None
    return float(expiry)


class RefreshTimer:
    """
    One pending callback at a time, `margin` seconds before a token's `exp`, on `clock`.

    `asynchronous` timers wait in a task of the running event loop and await the callback;
    others wait on a daemon thread. `cancel()` drops the pending one.
    """

    def __init__(
        self,
        callback: Callable[[str], Any],
        *,
        asynchronous: bool,
        clock: Clock | None = None,
    ) -> None:
        self.callback = callback
        self.asynchronous = asynchronous
        #: The clock the timer reads and waits on; `None` for the package's.
        self.clock = clock
        self._lock = threading.Lock()
        #: The pending callback: the event cancelling its thread, or its task.
        self._handle: threading.Event | asyncio.Task[Any] | None = None
        # The event loop keeps only weak references to tasks.
        self._tasks: set[asyncio.Task[Any]] = set()

    def delay(self, token: str, margin: float) -> float | None:
        """
        Seconds from now to the callback: `margin` before the token's `exp`, or halfway to its
        expiry when that is later (a token shorter-lived than the margin is not refreshed again
        and again); `None` for a token without `exp`.
        """
        expiry = token_expiry(token)
        if expiry is None:
            return None
        remaining = expiry - self._clock().time()
        return max(remaining - margin, remaining / 2, 0.0)

    def schedule(self, token: str, margin: float) -> None:
        """Call back with `token` `margin` seconds before it expires (see `delay()`)."""
        self.cancel()
        delay = self.delay(token, margin)
        if delay is None:
            return
        if self.asynchronous:
            task = asyncio.ensure_future(self._await(delay, token))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            with self._lock:
                self._handle = task
            return
        cancelled = threading.Event()
        with self._lock:
            self._handle = cancelled
        thread = threading.Thread(
            target=self._run, args=(delay, token, cancelled), name="refresh-timer", daemon=True
        )
        thread.start()

    def cancel(self) -> None:
        """Drop the pending callback, if any."""
        with self._lock:
            handle, self._handle = self._handle, None
        if isinstance(handle, threading.Event):
            handle.set()
        elif handle is not None:
            handle.cancel()

    def _clock(self) -> Clock:
        return self.clock or package_clock.current()

    def _due(self, handle: Any) -> bool:
        # The callback goes only if it is still the pending one; it is no longer pending once
        # it runs, so that the refresh scheduling the next one does not cancel itself.
        with self._lock:
            if self._handle is not handle:
                return False
            self._handle = None
            return True

    def _run(self, delay: float, token: str, cancelled: threading.Event) -> None:
        if self._clock().wait(cancelled, delay) or not self._due(cancelled):
            return
        # A failed refresh leaves the token to expire: the next call raises the error.
        with contextlib.suppress(FeathersError):
            self.callback(token)

    async def _await(self, delay: float, token: str) -> None:
        await self._clock().asleep(delay)
        if not self._due(asyncio.current_task()):
            return
        with contextlib.suppress(FeathersError):
            await self.callback(token)


class RefreshSteps:
    """What the sync and async clients share of refreshing: when to, and the steps."""

    result: Any
    header: str
    scheme: str
    app: Any
    storage: Any
    refresh_storage_key: str
    refresh_strategy: str
    handle_error_flow: Callable[[FeathersError], Flow]
    authenticate_flow: Callable[[Any, Any], Flow]

    def current_token(self) -> str | None:
        """The access token of the current result, or None."""
        token = self.result.get("accessToken") if isinstance(self.result, Mapping) else None
        return token if isinstance(token, str) and token else None

    def token_sent(self, request: Request | SocketCall) -> str | None:
        """
        The access token `request` carries in this client's header (over socket.io: the one
        the socket was logged in with), or None.
        """
        if isinstance(request, SocketCall):
            return request.credential
        prefix = f"{self.scheme} "
        for name, value in request.headers.items():
            if name.lower() == self.header.lower() and value.startswith(prefix):
                return value[len(prefix) :]
        return None

    def should_refresh(self, request: Request | SocketCall, error: FeathersError) -> bool:
        """
        Whether a call that failed with `error` refreshes and is sent again: the token it
        carried expired, and was this client's (the current one, or an earlier one of the
        same login, its `sid`), not one the caller set in `params["headers"]`.
        """
        sent, current = self.token_sent(request), self.current_token()
        if not is_expiry(error) or sent is None or current is None:
            return False
        login = _claim(sent, "sid")
        return sent == current or (login is not None and login == _claim(current, "sid"))

    def with_current_token(self, request: Request | SocketCall) -> Request | SocketCall:
        """`request` carrying the current access token in place of the one it was sent with."""
        if isinstance(request, SocketCall):
            return dataclasses.replace(request, credential=self.current_token())
        header = {self.header: f"{self.scheme} {self.current_token()}"}
        return dataclasses.replace(request, headers=merge_headers(request.headers, header))

    def uses_socket(self) -> bool:
        """Whether the app's connection is a socket, which the server closes at expiry."""
        return hasattr(self.app.connection, "authentication_path")

    def send_flow(self, service: Any, request: Request | SocketCall) -> Flow:
        """A call; after a 401 for an expired token, refresh once and send it again."""
        try:
            return (yield from call_flow(service.connection, request))
        except FeathersError as error:
            if not self.should_refresh(request, error):
                raise
            yield from self.refresh_flow(self.token_sent(request), None)
        return (yield from call_flow(service.connection, self.with_current_token(request)))

    def refresh_flow(self, stale: str | None, params: Any) -> Flow:
        """
        The steps of `refresh()`: log in with the stored refresh token, unless the access
        token is no longer `stale` (another call refreshed it meanwhile: its result is kept).
        One refresh at a time: the others wait, then find the new token.
        """
        lock = f"django_services.refresh.{id(self)}"
        yield Acquire(lock)
        try:
            result = yield from self._refresh_held(stale, params)
        except Exception:
            yield Release(lock)
            raise
        yield Release(lock)
        return result

    def _refresh_held(self, stale: str | None, params: Any) -> Flow:
        current = self.current_token()
        if stale is not None and current is not None and current != stale:
            return self.result
        token = yield Load(self.storage, self.refresh_storage_key)
        if not token:
            error = NotAuthenticated("No refreshToken found in storage")
            yield from self.handle_error_flow(error)
            raise error
        data = {"strategy": self.refresh_strategy, "refreshToken": token}
        try:
            return (yield from self.authenticate_flow(data, params))
        except FeathersError as error:
            if isinstance(error.code, int) and 400 < error.code < 408:
                yield Delete(self.storage, self.refresh_storage_key)
            raise

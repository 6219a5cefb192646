"""
What the sync and async socket.io connections share: their options, the login they restore
after a reconnect, their listeners, and how an ack becomes a result or a Feathers error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import FeathersError, NotAuthenticated, Timeout, Unavailable, from_json
from .._base import TransportFailure
from ..config import Retries, TimeoutConfig
from ..events import Listeners
from . import _recovery
from ._engineio import adapt
from .base import keyword_names
from .socket_call import SocketAck, SocketCall, build_socket_call

__all__ = [
    "MANAGED_OPTIONS",
    "SOCKET_OPTIONS",
    "SocketState",
    "engine_ended",
    "reconnect_task",
    "split_options",
]

#: The options of a socket connection besides `headers` and `timeout`.
SOCKET_OPTIONS = ("transports", "authentication_path", "auth")
#: Set by the connection itself when it makes python-socketio's client from a remote's OPTIONS.
MANAGED_OPTIONS = frozenset({"handle_sigint", "logger", "engineio_logger", "serializer", "json"})
_QUIET_REASONS = ("client disconnect", "server disconnect")


class SocketState:
    """What both socket connections share: the URL, the handshake, the login and listeners."""

    #: python-socketio's client class the connection runs on (`Client` or `AsyncClient`).
    client_class: type[Any]
    #: A socket's headers go with its handshake, never with a call.
    call_headers = False

    @classmethod
    def create_client(cls, client_options: Mapping[str, Any]) -> Any:
        return cls.client_class(**client_options)

    @classmethod
    def open(
        cls, base_url: str, options: Mapping[str, Any], client_options: Mapping[str, Any]
    ) -> Any:
        options, client_options = split_options(options, client_options)
        return cls(cls.create_client(client_options), base=base_url, options=options)  # type: ignore[call-arg]

    @classmethod
    def option_names(cls) -> frozenset[str]:
        names = keyword_names(cls.client_class.__init__, MANAGED_OPTIONS) - {"kwargs"}
        return names | frozenset(SOCKET_OPTIONS)

    client: Any
    timeout: TimeoutConfig
    # Each connection defines its handlers of python-socketio's events, sync or async as its
    # client calls them.
    _on_event: Callable[..., Any]
    _on_connect: Callable[..., Any]
    _on_disconnect: Callable[..., Any]
    headers: Mapping[str, Any]
    base: str
    retries: Retries | None

    def _setup(self, options: Mapping[str, Any]) -> dict[str, Any]:
        options = dict(options or {})
        transports = options.pop("transports", ("websocket",))
        if isinstance(transports, str) or not set(transports) <= {"websocket", "polling"}:
            raise ValueError("options['transports'] must list 'websocket' and/or 'polling'.")
        self.transports = list(transports)
        self.authentication_path = str(options.pop("authentication_path", "authentication"))
        self.authentication_path = self.authentication_path.strip("/")
        auth = options.pop("auth", None)
        if auth is not None and not isinstance(auth, Mapping):
            raise ValueError("options['auth'] must be a mapping, sent with the handshake.")
        self.auth = dict(auth) if auth is not None else None
        #: The socket's private id and last offset, sent again to resume its session.
        self.recovery = _recovery.Recovery()
        #: The token of the last login made over this connection, sent again after a reconnect.
        self.access_token: str | None = None
        self.listeners = Listeners()
        self.closed = False
        #: Whether python-socketio is reconnecting after a transport loss.
        self.reconnecting = False
        #: Whether the namespace is connected: calls can be sent.
        self.up = False
        #: What the server sent when it refused the last handshake (`connect_error`).
        self._refusal: Any = None
        return options

    def _check_client(self, client: Any, cls: type[Any]) -> None:
        if not isinstance(client, cls):
            raise TypeError(f"Expected a socketio.{cls.__name__}, not {type(client).__name__}.")
        adapt(client.eio)
        _recovery.adapt(client, self.recovery)
        client.on("*", self._on_event)
        client.on("connect", self._on_connect)
        client.on("disconnect", self._on_disconnect)
        client.on("connect_error", self._on_connect_error)

    @property
    def recovered(self) -> bool:
        """
        Whether the last connect resumed the socket's session (socket.io's connection state
        recovery): the server replayed the events missed, before the connect.
        """
        return self.recovery.recovered

    def _handshake_auth(self) -> Any:
        # python-socketio asks for it at every connect, its reconnects included.
        return self.recovery.auth(self.auth)

    def _on_connect_error(self, data: Any = None, *args: Any) -> None:
        self._refusal = data

    def _refused(self, exc: Exception) -> FeathersError:
        """The error of a failed connect: the server's own when it refused the handshake."""
        refusal, self._refusal = self._refusal, None
        if isinstance(refusal, Mapping) and isinstance(refusal.get("message"), str):
            details = refusal.get("data")
            if isinstance(details, Mapping) and "className" in details:
                return from_json(details)
            if "className" in refusal:
                return from_json(refusal)
            # Feathers sends the message and data of the error its handshake login raised.
            return NotAuthenticated(refusal["message"], details)
        return Unavailable(f"Can not connect to {self.base}: {exc}")

    def _connect_options(self) -> dict[str, Any]:
        return {
            "headers": {name: str(value) for name, value in self.headers.items()},
            "transports": self.transports,
            "auth": self._handshake_auth,
            "wait_timeout": self.timeout.connect,
            "retry": False,
        }

    def _call_timeout(self, call: SocketCall) -> float:
        timeout = call.options.get("timeout", self.timeout.read)
        if isinstance(timeout, TimeoutConfig):
            timeout = timeout.read
        return float(timeout) if timeout is not None else 365 * 86400.0

    def _note_disconnect(self, reason: Any = None) -> None:
        self.reconnecting = bool(
            not self.closed
            and getattr(self.client, "reconnection", False)
            and str(reason) not in _QUIET_REASONS
        )

    def _forget_unseen_loss(self) -> bool:
        """
        After python-socketio's reconnect has returned from `connect()`: whether the transport
        was lost before it returned, then set python-socketio's client not connected.

        python-socketio marks its client connected only when `connect()` returns, after the
        connect handlers ran; a transport lost in between goes unseen (no disconnect event, no
        new reconnect), and its client stayed connected to nothing. Its disconnect handling
        has cleared the session id: the one trace of the loss.
        """
        client = self.client
        if not (client.connected and client.sid is None):
            return False
        client.connected = False  # so that `connect()` may run again
        return True

    def _dropped_during_login(self, error: FeathersError | TransportFailure) -> bool:
        """
        After the login again of a reconnect failed with `error`: whether the socket dropped
        before its answer, so that the restore stops there (python-socketio reconnects, and the
        next socket logs in with the same token). A refused token is forgotten: the calls go
        out anonymous. A login left unanswered on a live socket keeps its token.
        """
        if isinstance(error, FeathersError):
            self.access_token = None
            return False
        return not self.up

    def _outcome(self, call: SocketCall, ack: SocketAck) -> Any:
        """The result of an ack `[null, result]`, or the Feathers error of `[error]`."""
        if ack.ok:
            self._remember_login(call, ack.result)
            return ack.result
        if isinstance(ack.error, Mapping):
            code = ack.error.get("code")
            raise from_json(ack.error, code if isinstance(code, int) else None)
        raise FeathersError(f"The server answered {call.event} on '{call.path}': {ack.error!r}")

    def _remember_login(self, call: SocketCall, result: Any) -> None:
        if call.path != self.authentication_path:
            return
        if call.event == "create" and isinstance(result, Mapping):
            token = result.get("accessToken")
            if isinstance(token, str) and token:
                self.access_token = token
        elif call.event == "remove":
            self.access_token = None

    def _login_again(self) -> SocketCall | None:
        if not self.access_token:
            return None
        data = {"strategy": "jwt", "accessToken": self.access_token}
        return build_socket_call("create", self.authentication_path, data=data)

    def _unavailable(self, call: SocketCall, why: str) -> Unavailable:
        error = Unavailable(f"{why}: can not send {call.service_method} to {self.base}.")
        error._no_answer = True  # type: ignore[attr-defined]
        return error

    def decode(self, call: SocketCall, ack: SocketAck) -> Any:
        """The result of an ack, or raise the Feathers error it carries."""
        return self._outcome(call, ack)

    def no_answer(self, failure: TransportFailure) -> FeathersError:
        """`Timeout` for an ack that did not come in time, `Unavailable` for a lost socket."""
        call: SocketCall = failure.request
        if failure.timed_out:
            return Timeout(
                f"Timed out waiting for {call.event} on '{call.path}'.",
                {"method": call.event, "path": call.path},
            )
        return self._unavailable(call, str(failure))

    def retry_hint(self, ack: Any, error: FeathersError) -> tuple[int | None, str | None] | None:
        """
        What the retry rules of HTTP read from `error` (`retryAfter` for `Retry-After`);
        `None` on a closed connection or a timeout, never sent again.
        """
        if self.closed or isinstance(error, Timeout):
            return None
        if getattr(error, "_no_answer", False):
            return None, None
        retry_after = error.data.get("retryAfter") if isinstance(error.data, Mapping) else None
        if isinstance(retry_after, (int, float)) and not isinstance(retry_after, bool):
            retry_after = str(math.ceil(retry_after))
        status = error.code if isinstance(error.code, int) else None
        return status, retry_after if isinstance(retry_after, str) else None


def split_options(
    options: Mapping[str, Any], client_options: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    # A remote's OPTIONS hold the connection's own socket options beside python-socketio's.
    own = {key: value for key, value in client_options.items() if key in SOCKET_OPTIONS}
    rest = {key: value for key, value in client_options.items() if key not in SOCKET_OPTIONS}
    return {**options, **own}, rest


def engine_ended(engine: Any) -> bool:
    """Whether the engine.io client has ended its last connection."""
    # The engine.io client has ended its last connection: disconnected, and done resetting (it
    # lets go of its HTTP session last; a connection made before would lose its session).
    return bool(engine.state == "disconnected" and not getattr(engine, "resetting", False))


def reconnect_task(client: Any) -> Any:
    """The thread or task of python-socketio's reconnect under way, or None."""
    # python-socketio's own attribute (tests/client/transports/test_engineio.py checks it): set
    # when a lost transport starts the reconnect, None once its `connect()` has returned.
    return getattr(client, "_reconnect_task", None)

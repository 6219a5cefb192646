"""
socket.io's connection state recovery (socket.io 4.6+), which python-socketio's clients do not
speak, spoken as socket.io-client does.

With recovery on, a server answers CONNECT with a private id beside the session id
(`{"sid": ..., "pid": ...}`) and appends an offset string to every event it sends that asks for
no ack (`["todos created", {...}, "<offset>"]`). `Recovery` keeps the `pid` and the last offset
and gives them back in the auth payload of the next CONNECT (`{"pid": ..., "offset": ...}`, the
caller's own keys of the same names winning); the server then replays the events missed, before
its answer, and `recovered` is true when the answer carries the same `pid`. The offset is taken
off the event's arguments, only while a `pid` is held: a server without recovery sends no
offsets, and a trailing string is then data.

`adapt(client, recovery)` gives a python-socketio client (`Client` or `AsyncClient`) the hooks
that read the CONNECT answer and the events. They override python-socketio's internals
(`_handle_connect(namespace, data)` and `_handle_event(namespace, id, data)`), checked by
`tests/client/transports/test_recovery.py` on every version the package supports (python-socketio
5.13 and later), and `connect()`, whose reconnects wait for the answer as long as the first
connect did. The auth payload goes through python-socketio's own `auth=` callable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import socketio

__all__ = ["Recovery", "adapt"]

_DEFAULT_NAMESPACES = (None, "", "/")


class Recovery:
    """The private id and last offset of a socket, and whether its last connect recovered."""

    def __init__(self) -> None:
        #: The private id the server gave the socket (a credential: it resumes the session).
        self.pid: str | None = None
        #: The offset of the last event received.
        self.offset: str | None = None
        #: Whether the last connect resumed the session of the one before it.
        self.recovered = False
        #: The seconds a connect waits for its CONNECT answer, as the first one was told.
        self.wait_timeout: float | None = None

    def auth(self, own: Any = None) -> Any:
        """The auth payload of a CONNECT: `own` with the `pid` and offset held, if any."""
        if self.pid is None or not (own is None or isinstance(own, Mapping)):
            return own
        kept = {"pid": self.pid}
        if self.offset is not None:
            # socket.io-client sends an undefined offset, which JSON leaves out.
            kept["offset"] = self.offset
        return {**kept, **(own or {})}

    def connect_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """
        The keyword arguments of a `connect()`: python-socketio's reconnects give none of
        `wait_timeout`, and wait 1 s for the CONNECT answer, then disconnect, which ends the
        session on the server; the answer of a recovery comes after the events missed, so a
        reconnect waits as long as the connect before it was allowed to.
        """
        if "wait_timeout" in options:
            self.wait_timeout = options["wait_timeout"]
        elif self.wait_timeout is not None:
            options = {**options, "wait_timeout": self.wait_timeout}
        return options

    def connected(self, namespace: str | None, data: Any) -> None:
        """Read the CONNECT answer `data` of `namespace`."""
        if namespace not in _DEFAULT_NAMESPACES:
            return
        pid = data.get("pid") if isinstance(data, Mapping) else None
        pid = pid if isinstance(pid, str) else None
        self.recovered = pid is not None and pid == self.pid
        if not self.recovered:
            self.offset = None
        self.pid = pid

    def event(self, namespace: str | None, ack_id: Any, data: Any) -> Any:
        """The event packet's `data` (`[name, *args]`) without the offset, which is kept."""
        if (
            self.pid is None
            or ack_id is not None
            or namespace not in _DEFAULT_NAMESPACES
            or not isinstance(data, list)
            or len(data) < 2
            or not isinstance(data[-1], str)
        ):
            return data
        self.offset = data[-1]
        return data[:-1]


class _RecoveringClient(socketio.Client):
    recovery: Recovery

    def connect(self, *args: Any, **kwargs: Any) -> Any:
        kwargs = self.recovery.connect_options(kwargs)
        return super().connect(*args, **kwargs)

    def _handle_connect(self, namespace: Any, data: Any) -> Any:
        self.recovery.connected(namespace, data)
        return super()._handle_connect(namespace, data)

    def _handle_event(self, namespace: Any, id: Any, data: Any) -> Any:
        return super()._handle_event(namespace, id, self.recovery.event(namespace, id, data))


class _AsyncRecoveringClient(socketio.AsyncClient):
    recovery: Recovery

    async def connect(self, *args: Any, **kwargs: Any) -> Any:
        kwargs = self.recovery.connect_options(kwargs)
        return await super().connect(*args, **kwargs)

    async def _handle_connect(self, namespace: Any, data: Any) -> Any:
        self.recovery.connected(namespace, data)
        return await super()._handle_connect(namespace, data)

    async def _handle_event(self, namespace: Any, id: Any, data: Any) -> Any:
        data = self.recovery.event(namespace, id, data)
        return await super()._handle_event(namespace, id, data)


_ADAPTED: dict[type[Any], type[Any]] = {}


def adapt(client: Any, recovery: Recovery) -> Any:
    """Make `client` (a python-socketio client) keep its recovery state in `recovery`."""
    cls = type(client)
    if cls not in _ADAPTED.values():
        if cls not in _ADAPTED:
            hooks = (
                _AsyncRecoveringClient
                if isinstance(client, socketio.AsyncClient)
                else _RecoveringClient
            )
            if cls in (socketio.Client, socketio.AsyncClient):
                _ADAPTED[cls] = hooks
            else:
                _ADAPTED[cls] = type(f"Recovering{cls.__name__}", (hooks, cls), {})
        client.__class__ = _ADAPTED[cls]
    client.recovery = recovery
    return client

"""
Logins ended on the server, pushed to the sockets logged in with them, in every process.

    revocations = Revocations(server)     # made by the server; start() at its startup
    revocations.logins                    # its connections by user, token, family, session

When a login ends (`authentication.signals.logins_ended`: a password change, a deactivated or
deleted user, a denylisted token, an ended refresh token family, a Django logout), the thread
that committed finds the connections of this process logged in with it (O(connections of that
user, token, family or session)), checks again those of an ended user (its login may still
hold: a session kept by `update_session_auth_hash`, a token issued after the change), and waits
until the event loop has logged them out, so that the request answers after. With a pub/sub
client manager (Redis), the loop then publishes the ending on the manager's channel; the
other processes apply it when they read it, before any event published after it on that
channel. A process without a socket.io server publishes it through the emitter's manager.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from django.db import close_old_connections
from socketio.async_pubsub_manager import AsyncPubSubManager

from ..authentication import signals
from ..authentication.signals import EndedLogins, logins_ended
from . import emitter
from .login import login_holds
from .logins import LoginIndex, ended_keys, login_keys

__all__ = ["REVOKE", "Revocations", "ending", "install", "listen", "message"]

logger = logging.getLogger("django_services.server")

#: The `method` of the pub/sub message of an ending (python-socketio ignores unknown ones).
REVOKE = "django_services.revoke"
_MARK = REVOKE.encode()

#: The seconds a request waits at most for the event loop to log its sockets out.
WAIT = 30.0

_lock = threading.Lock()
_servers = 0


def ending(index: LoginIndex, ended: EndedLogins) -> list[tuple[Any, dict[str, Any]]]:
    """
    The connections whose login `ended` ends, each with that login: those of its token,
    family or session, and those of its user whose login no longer holds (checked here,
    with the database: run it in a thread).
    """
    user = ("user", ended.user)
    exact = ended_keys(ended) - {user}
    found = []
    for connection in index.find(ended):
        used = connection.authentication
        if used is None:
            continue
        keys = login_keys(connection)
        if not keys.isdisjoint(exact) or (user in keys and not login_holds(connection, used)):
            found.append((connection, used))
    return found


def message(ended: EndedLogins, host_id: str) -> dict[str, Any]:
    """The pub/sub message of an ending (its `method` first, as python-socketio's are)."""
    return {"method": REVOKE, "host_id": host_id, **dataclasses.asdict(ended)}


def _ended_of(data: Any) -> tuple[EndedLogins, Any] | None:
    """The ending a pub/sub message carries and its sender, or None for any other message."""
    if isinstance(data, (bytes, str)):
        head = data[:80] if isinstance(data, bytes) else data[:80].encode()
        if _MARK not in head:
            return None
        try:
            data = json.loads(data)
        except ValueError:
            return None
    if not isinstance(data, dict) or data.get("method") != REVOKE:
        return None
    fields = [field.name for field in dataclasses.fields(EndedLogins)]
    values = [data.get(name) for name in fields]
    if not all(value is None or isinstance(value, str) for value in values):
        return None
    return EndedLogins(*values), data.get("host_id")


def listen(manager: Any, handler: Callable[[EndedLogins], Awaitable[None]]) -> None:
    """
    Make a pub/sub manager hand the endings other processes publish to `handler`, awaited in
    the order of the channel: an event published after an ending is sent after it is applied.
    """
    receive = manager._listen

    async def _listen() -> Any:
        async for item in receive():
            revocation = _ended_of(item)
            if revocation is None:
                yield item
                continue
            ended, sender = revocation
            if sender == manager.host_id:
                continue
            try:
                await handler(ended)
            except Exception:
                logger.exception("Logging out the sockets of an ended login failed")

    manager._listen = _listen


class Revocations:
    """
    One socket.io server's side: its index of logins, and the endings it applies, from the
    threads of this process and from the other processes.
    """

    def __init__(self, server: Any) -> None:
        self.server = server
        self.logins = LoginIndex()
        self._receiver = f"{__name__}.{id(self)}"

    def start(self) -> None:
        """Receive the endings of this process and, with a pub/sub manager, of the others."""
        global _servers
        signals.install()
        logins_ended.connect(self.on_logins_ended, dispatch_uid=self._receiver)
        manager = self.server.sio.manager
        if isinstance(manager, AsyncPubSubManager):
            listen(manager, self.on_remote_ending)
        with _lock:
            _servers += 1

    def stop(self) -> None:
        """Stop receiving them."""
        global _servers
        if logins_ended.disconnect(dispatch_uid=self._receiver):
            with _lock:
                _servers -= 1

    def on_logins_ended(self, sender: Any, ended: EndedLogins, **kwargs: Any) -> None:
        """In the thread that committed: log the connections out before it goes on."""
        loop = self.server.loop
        if loop is None or loop.is_closed():
            return
        try:
            in_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            in_loop = False
        if in_loop:
            # Never blocks the loop: the checks run in a thread, the ending after them.
            task = loop.create_task(self._apply_checked(ended, publish=True))
            self.server._tasks.add(task)
            task.add_done_callback(self.server._tasks.discard)
            return
        future = asyncio.run_coroutine_threadsafe(
            self.apply(ending(self.logins, ended), ended, publish=True), loop
        )
        try:
            future.result(WAIT)
        except Exception:
            logger.exception("Logging out the sockets of an ended login failed")

    async def on_remote_ending(self, ended: EndedLogins) -> None:
        """An ending another process published: apply it here."""
        await self._apply_checked(ended, publish=False)

    async def _apply_checked(self, ended: EndedLogins, *, publish: bool) -> None:
        found = await self.server.workers.run(None, _checked_ending, self.logins, ended)
        await self.apply(found, ended, publish=publish)

    async def apply(
        self, found: list[tuple[Any, dict[str, Any]]], ended: EndedLogins, *, publish: bool
    ) -> None:
        """Log out the connections `found`, then tell the other processes (`publish`)."""
        for connection, used in found:
            await self.server.end_login(connection, used)
        manager = self.server.sio.manager
        if publish and isinstance(manager, AsyncPubSubManager):
            await manager._publish(message(ended, manager.host_id))


def _checked_ending(index: LoginIndex, ended: EndedLogins) -> list[tuple[Any, dict[str, Any]]]:
    close_old_connections()
    try:
        return ending(index, ended)
    finally:
        close_old_connections()


def install() -> None:
    """
    In a process that publishes through Redis (`SOCKETIO_REDIS_URL`): publish its endings on
    the channel of the socket.io servers while it runs none itself.
    """
    signals.install()
    logins_ended.connect(_publish, weak=False, dispatch_uid=f"{__name__}.publish")


def _publish(sender: Any, ended: EndedLogins, **kwargs: Any) -> None:
    url = emitter.redis_url()
    if url is None or _servers > 0:
        return
    emitter._manager(url)._publish(message(ended, ""))

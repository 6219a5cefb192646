"""
The socket.io server: python-socketio's `AsyncServer`, answering Feathers socket calls.

    server = SocketServer()              # keyword arguments go to socketio.AsyncServer
    app = server.asgi_app(django_asgi_app)

Every event whose name is not one of socket.io's own is a service call (`dispatch`). Each
socket is a `Connection`, logged in by the handshake's credentials or a `create` on the
authentication service; a socket whose token expires is disconnected at that moment, as
Feathers does, and one whose login ends on the server (a password change, a logout elsewhere:
see `revocation.py`) is logged out at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import socketio
from rest_framework.utils.encoders import JSONEncoder

from ... import clock
from ...errors import FeathersError, GeneralError
from .. import telemetry
from ..pipeline.events import ServiceEvent, event_bus
from . import emitter, fanout, outgoing
from .channels import get_publisher
from .connection import Connection
from .dispatch import Failed, dispatch
from .engine import quiet_invalid_utf_8
from .flood import CallBudget, too_many_calls
from .handshake import handshake_login
from .login import is_login_call
from .protocol import (
    FeathersPacket,
    SocketIOApp,
    close_on_parse_errors,
    drop_handshake_body,
    end_polls_on_close,
    refuse_namespace,
)
from .publishing import EventSender
from .reads import user_key
from .recovery import Recovery, with_pids
from .revocation import Revocations
from .workers import CallWorkers

if TYPE_CHECKING:
    from ...request_threads import RequestThreads

__all__ = ["SocketServer"]

logger = logging.getLogger("django_services.server")


class _JSON:
    """The JSON python-socketio writes with: DRF's encoder, as REST responses use."""

    dumps = staticmethod(partial(json.dumps, cls=JSONEncoder, ensure_ascii=False))
    loads = staticmethod(json.loads)


class SocketServer:
    """
    A python-socketio `AsyncServer` that serves the project's services to Feathers clients.

    **Parameters:**

    * **call_rate**, **call_burst** - the calls a second one connection may make, and how many
      at once after a pause; **calls_in_flight** - how many of its calls may be in flight at
      once. A call beyond them is answered 429 TooManyRequests without running.
    * **call_threads** - the threads socket calls run in (default: 4 a core and 4 more, at
      most 32); one connection runs at most a quarter of them at once, its other calls wait.
    * **longest_poll** - the seconds a long-poll waits at most before it is answered with a
      noop (clients poll again): what a stopping server waits for at most on polling clients.
    * any keyword argument of `socketio.AsyncServer` (`cors_allowed_origins`, `client_manager`,
      `ping_interval`, ...). `async_mode` is always `"asgi"`, and only the main namespace `/`
      is served (others are refused with socket.io's `Invalid namespace`). The defaults keep
      socket.io's: same-origin handshakes only, a 1 MB payload limit, 25 s pings. A connection
      with more than `SOCKETIO_OUTGOING_LIMIT` bytes waiting for it is cut off (`outgoing`).
    """

    def __init__(
        self,
        *,
        call_rate: float = 1000,
        call_burst: int = 1000,
        calls_in_flight: int = 32,
        call_threads: int | None = None,
        longest_poll: float = 5.0,
        **options: Any,
    ) -> None:
        self.longest_poll = longest_poll
        self.call_rate, self.call_burst = call_rate, call_burst
        self.calls_in_flight = calls_in_flight
        self.workers = CallWorkers(call_threads)
        #: The threads of the Django application REST requests go to, closed at shutdown
        #: with the server (`get_asgi_application()` sets them).
        self.request_threads: RequestThreads | None = None
        #: The private id of each socket, by sid, that its CONNECT answer carries (`recovery`).
        pids: dict[str, str] = {}
        serializer = options.get("serializer", FeathersPacket)
        if isinstance(serializer, type):
            options["serializer"] = with_pids(serializer, pids)
        options.setdefault("json", _JSON)
        url = emitter.redis_url()
        if url is not None and "client_manager" not in options:
            options["client_manager"] = fanout.RedisManager(url, channel=emitter.redis_channel())
        options.setdefault("client_manager", fanout.Manager())
        # Every namespace reaches `refuse_namespace`, so that none gets python-socketio's
        # own wording of the refusal.
        options["namespaces"] = "*"
        self.sio = socketio.AsyncServer(async_mode="asgi", **options)
        outgoing.install(self.sio.eio, outgoing.limit())
        self.connections: dict[str, Connection] = {}
        self.events = EventSender(self.sio, self.connections, self.workers)
        self.recovery = Recovery(self.sio, self.events, self.workers, pids)
        self.events.carry_offsets = lambda: self.recovery.enabled
        self.revocations = Revocations(self)
        self._budgets: dict[str, CallBudget] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.sio.on("connect", self.on_connect)
        self.sio.on("disconnect", self.on_disconnect)
        self.sio.on("*", self.on_call)
        self.sio.on("connect", refuse_namespace, namespace="*")
        close_on_parse_errors(self.sio)
        end_polls_on_close(self.sio)
        drop_handshake_body(self.sio)
        quiet_invalid_utf_8()
        event_bus.subscribe(self.on_service_event)
        emitter.server_started()
        self.revocations.start()
        telemetry.serve(self)

    async def startup(self) -> None:
        """Remember the event loop events are sent from, tail the event log (ASGI startup)."""
        self.loop = asyncio.get_running_loop()
        self._tail()
        if isinstance(self.sio.manager, fanout.Manager):
            # No connection is accepted before the tailer knows where the log ends.
            await self.events.tailer.ready()

    async def shutdown(self) -> None:
        """Stop publishing events and disconnect every socket (the ASGI lifespan's shutdown)."""
        with contextlib.suppress(ValueError):
            event_bus.unsubscribe(self.on_service_event)
            emitter.server_stopped()
        self.revocations.stop()
        await self.events.tailer.stop()
        # The sockets the server closes as it stops are recovered by the next process.
        self.recovery.stopping = True
        await self.sio.shutdown()
        self.workers.shutdown()
        if self.request_threads is not None:
            await asyncio.to_thread(self.request_threads.close)

    def asgi_app(self, other_asgi_app: Any = None, socketio_path: str = "socket.io") -> Any:
        """The ASGI application: socket.io at `/<socketio_path>/`, the rest to `other_asgi_app`."""
        application = SocketIOApp(
            self.sio,
            other_asgi_app=other_asgi_app,
            socketio_path=socketio_path,
            # Lifespan events stay here: Django's ASGI handler refuses them.
            on_startup=self.startup,
            on_shutdown=self.shutdown,
        )
        application.longest_poll = self.longest_poll
        return application

    def _tail(self) -> None:
        """Tail the event log (`tailer`), when the fan-out delivers events by their offsets."""
        if isinstance(self.sio.manager, fanout.Manager):
            self.events.tailer.start()

    # Handlers -----------------------------------------------------------------------------

    async def on_connect(self, sid: str, environ: Any = None, auth: Any = None) -> None:
        """
        Accept a socket, logged in by its handshake's credentials (refuse bad ones), or
        recover the session its `auth` names (`recovery`).
        """
        if sid in self.connections:
            # A client that emits an event named `connect` reaches this handler too.
            return
        self.loop = asyncio.get_running_loop()
        self._tail()
        connection = Connection.from_environ(sid, self.sio.get_environ(sid) or {})
        connection.logins = self.revocations.logins
        publisher = get_publisher()
        try:
            await self.workers.run(None, handshake_login, connection)
            resume = None if publisher is None else await self.recovery.prepare(connection, auth)
        except Exception as exc:
            connection.logout()
            raise _refusal(exc) from None
        self.connections[sid] = connection
        self._arm_expiry(connection)
        if publisher is None:
            return
        if resume is not None:
            channels = resume.channels
            if channels is None:
                channels = await self._channels_for(connection, publisher)
            try:
                await self.recovery.resume(connection, resume, channels)
            except Exception as exc:
                await self._forget(sid, None)
                raise _refusal(exc) from None
            return
        for name in publisher.connected(connection):
            await self.sio.enter_room(sid, name)
        if connection.is_authenticated:
            await self._move_channels(connection, publisher)
        if self.recovery.enabled:
            await self.recovery.begin(connection)

    async def on_disconnect(self, sid: str, *args: Any) -> None:
        """Forget a socket that left."""
        if self.sio.manager.is_connected(sid, "/"):
            # An event named `disconnect` from a connected client, not a disconnection.
            return
        await self._forget(sid, args[0] if args else None)

    async def _forget(self, sid: str, reason: Any) -> None:
        self._budgets.pop(sid, None)
        connection = self.connections.pop(sid, None)
        if connection is not None:
            self._cancel_expiry(connection)
            await self.recovery.end(connection, reason)
            connection.logout()

    async def on_call(self, event: str, sid: str, *args: Any) -> tuple[Any, ...] | None:
        """Answer a service call: the event name is the method."""
        connection = self.connections.get(sid)
        if connection is None:
            return None
        budget = self._budgets.get(sid)
        if budget is None:
            budget = self._budgets[sid] = CallBudget(
                self.call_rate, self.call_burst, self.calls_in_flight, self.workers.slots()
            )
        wait = budget.start()
        if wait is not None:
            return (too_many_calls(wait),)
        try:
            if is_login_call(args):
                # Logins and logouts of one connection, and their channels, one at a time.
                async with connection.login_lock:
                    login_before, user_before = connection.authentication, user_key(connection)
                    ack = await dispatch(connection, event, args, self.workers, budget.slots)
                    await self._follow_login(connection, login_before, user_before)
            else:
                ack = await dispatch(connection, event, args, self.workers, budget.slots)
                if connection.lost_login is not None:
                    async with connection.login_lock:
                        await self._follow_login(connection, connection.authentication)
        finally:
            budget.finish()
        self._arm_expiry(connection)
        return ack

    async def _follow_login(self, connection: Connection, before: Any, user: Any = None) -> None:
        """
        After a call: log the connection out if the call found its login gone (and no login
        replaced it since), and move its channels if its login changed, before the answer.
        """
        lost, connection.lost_login = connection.lost_login, None
        if lost is not None and connection.authentication is lost:
            connection.logout()
        if connection.authentication is not before:
            publisher = get_publisher()
            if publisher is not None:
                same = user is not None and user == user_key(connection)
                await self._move_channels(connection, publisher, same)

    # Channels and events ------------------------------------------------------------------

    async def _move_channels(
        self, connection: Connection, publisher: Any, same_user: bool = False
    ) -> None:
        """
        After a login or a logout (however it came): into the login's channels, or the
        publisher's `logged_out()` ones. A login again as the same user (`same_user`: a
        reconnect's) never leaves a channel it keeps, so no event sent meanwhile passes it by.
        """
        sid, login = connection.sid, connection.authentication
        if not same_user:
            await self._leave_channels(sid, set())
        if login is None:
            names = list(publisher.logged_out(connection))
        else:
            try:
                names = await self.workers.run(None, _channel_names, publisher, connection)
            except Exception:
                # The publisher read a connection logged out meanwhile: no channels to join.
                if connection.authentication is not login:
                    return
                raise
            if connection.authentication is not login:
                # Ended meanwhile (`end_login`), which placed the connection already.
                return
        await self._leave_channels(sid, set(names))
        joined = set(self.sio.rooms(sid))
        for name in names:
            if name not in joined:
                await self.sio.enter_room(sid, name)
        await self.recovery.changed(connection)

    async def _leave_channels(self, sid: str, kept: set[str]) -> None:
        for room in self.sio.rooms(sid):
            if room != sid and room not in kept:
                await self.sio.leave_room(sid, room)

    async def _channels_for(self, connection: Connection, publisher: Any) -> list[str]:
        """The channels a connection in its login state joins (`publisher`)."""
        if connection.is_authenticated:
            return await self.workers.run(None, _channel_names, publisher, connection)
        return list(publisher.connected(connection))

    async def end_login(self, connection: Connection, login: Any) -> None:
        """
        Log out a connection whose login ended on the server, if it still holds that login:
        its channels move as after any logout.
        """
        if connection.authentication is not login:
            return
        self._cancel_expiry(connection)
        connection.logout()
        sid = connection.sid
        publisher = get_publisher()
        if publisher is None or self.connections.get(sid) is not connection:
            # A connection still in its handshake is placed by `on_connect`.
            return
        await self._move_channels(connection, publisher)

    def on_service_event(self, event: ServiceEvent) -> None:
        """
        Publish a service event (a subscriber of the event bus, called in the thread that
        committed): its channels are chosen there, and the event is sent from the loop.
        """
        loop = self.loop
        if loop is None or loop.is_closed() or event.path is None:
            return
        publisher = get_publisher()
        if publisher is None:
            return
        self.events.publish(event, publisher, loop)

    # Token expiry -------------------------------------------------------------------------

    def _arm_expiry(self, connection: Connection) -> None:
        """Set the disconnect timer for the connection's token, if its expiry changed."""
        expires_at = connection.expires_at
        if expires_at == connection.expiry_at:
            return
        self._cancel_expiry(connection)
        if expires_at is None:
            return
        connection.expiry = clock.alarm(expires_at, partial(self._expire, connection))
        connection.expiry_at = expires_at

    def _cancel_expiry(self, connection: Connection) -> None:
        if connection.expiry is not None:
            connection.expiry.cancel()
        connection.expiry = None
        connection.expiry_at = None

    def _expire(self, connection: Connection) -> None:
        connection.expiry = None
        connection.logout()
        task = asyncio.ensure_future(self.sio.disconnect(connection.sid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _channel_names(publisher: Any, connection: Connection) -> list[str]:
    if connection.user is None:
        return []
    return list(publisher.logged_in(connection))


def _refusal(exc: Exception) -> socketio.exceptions.ConnectionRefusedError:
    """The CONNECT_ERROR of a refused handshake or recovery: `{message, data}` of its error."""
    if isinstance(exc, Failed):
        error = exc.error if isinstance(exc.error, dict) else {}
    elif isinstance(exc, FeathersError):  # its class in `data`: a 503 is told from a 401
        error = {"message": exc.message, "data": exc.to_json()}
    else:
        logger.error("A socket handshake or recovery failed", exc_info=exc)
        error = GeneralError("Internal server error").to_json()
    message, data = error.get("message", "Connection refused"), error.get("data")
    return socketio.exceptions.ConnectionRefusedError(message, *([] if data is None else [data]))

"""
socket.io's connection state recovery, spoken as socket.io 4.6+ speaks it, by every process.

    recovery = Recovery(sio, sender, workers, pids)
    resume = await recovery.prepare(connection, auth)     # a reconnect's CONNECT: pid, offset
    await recovery.resume(connection, resume, channels)   # its missed events, then its channels
    await recovery.begin(connection)                      # or a new session

A socket's CONNECT answer carries a private id (`pid`) besides its `sid`, and every service
event it is sent carries the event's offset as its last argument (`offsets`). A client that
lost its connection sends both back in its next CONNECT (socket.io-client does, and so does the
package's Python client); the process it reaches, any of them, finds the session
(`sessions`), checks its login again (`login.restore_login`: a login revoked, expired, logged
out or deleted meanwhile is not restored, so the private events of the gap are not sent),
writes the events the socket missed, in order and each once, then answers the CONNECT with the
same `pid`: the client sets `recovered`. A session unknown, lost longer than
`SOCKETIO_RECOVERY["WINDOW"]` ago, or whose offset the event log no longer holds connects
afresh, as socket.io does. A connection the client or the server closed on purpose is not
recovered. A database away for a moment (a transient error reading the session, checking
its login or reading the events it missed) refuses the CONNECT with a `503` (`Unavailable`),
the session kept: the client's next try, within the window, recovers it (python-socketio's
reconnect tries again by itself; socket.io-client leaves it to a `connect_error` listener
calling `socket.connect()`).

The events are replayed while the process's deliveries wait (`EventSender.deliveries`), so that
none is sent twice or overtakes them. A client recovered from another process's offsets may
have been sent events this process has not delivered yet; those are skipped for it until this
process catches up (`EventSender.skips`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import DatabaseError
from socketio import packet

from ..database_errors import is_transient
from ..pipeline.errors import to_feathers_error
from . import event_log, fanout, reads, sessions
from .channels import get_publisher
from .login import restore_login
from .offsets import Offsets

if TYPE_CHECKING:
    from .connection import Connection
    from .publishing import EventSender
    from .workers import CallWorkers

__all__ = ["LOST", "Recovery", "Resume", "with_pids"]

logger = logging.getLogger("django_services.server")

#: The disconnect reasons of a lost connection (python-engineio's), which a reconnect recovers.
LOST = frozenset({"ping timeout", "transport close", "transport error"})

#: The longest private id a reconnect may present.
_PID_LENGTH = 128


@dataclasses.dataclass(frozen=True)
class Resume:
    """A reconnect that recovers a session: its `pid`, what it had been sent, its channels
    (None when its login changed: the channels of its new login state then)."""

    pid: str
    client: Offsets
    channels: list[str] | None


class Recovery:
    """The connection state recovery of one socket.io server."""

    def __init__(
        self, sio: Any, sender: EventSender, workers: CallWorkers, pids: dict[str, str]
    ) -> None:
        self.sio = sio
        self.sender = sender
        self.workers = workers
        #: The private id of each connected socket, by sid (read by the CONNECT answer).
        self.pids = pids
        self.stopping = False

    @property
    def enabled(self) -> bool:
        """Whether connections are recovered: on, with a publisher and the package's manager."""
        return (
            bool(event_log.recovery_setting("ENABLED"))
            and get_publisher() is not None
            and isinstance(self.sio.manager, fanout.Manager)
        )

    async def prepare(self, connection: Connection, auth: Any) -> Resume | None:
        """
        The session a CONNECT's `auth` recovers, with its login restored on `connection`
        (unless the handshake logged it in); None to connect afresh. Raises `Unavailable`
        when a transient database error leaves the session unread or its login unchecked:
        the connection is refused, and the session recovered at the client's next try (so
        does `resume` when its missed events can not be read).
        """
        if not isinstance(auth, Mapping) or not self.enabled:
            return None
        pid = auth.get("pid")
        if not isinstance(pid, str) or not pid or len(pid) > _PID_LENGTH:
            return None
        restoring = not connection.is_authenticated
        try:
            saved = await self.workers.run(None, sessions.load, pid)
            if saved is None:
                return None
            # A client sent no event yet sends its pid alone: what it was sent when it
            # connected.
            client = Offsets.decode(auth.get("offset", saved.offsets))
            if client is None or not await self.workers.run(None, sessions.log_holds, client):
                return None
            if restoring:
                await self.workers.run(
                    None, restore_login, connection, saved.authentication, saved.session_key
                )
        except DatabaseError as exc:
            logger.warning("A socket.io session could not be recovered: %s", exc)
            if restoring:
                connection.logout()  # a login half restored
            if is_transient(exc):
                # The database is away for a moment: the session stays for the next try.
                raise to_feathers_error(exc) from exc
            return None
        same = sessions.subject_of(connection) == saved.subject
        return Resume(pid, client, saved.channels if same else None)

    async def resume(self, connection: Connection, resume: Resume, channels: list[str]) -> None:
        """
        Send `connection` the events it missed that `channels` and its login let it see, in
        order, then join `channels`; its CONNECT answer carries its old `pid`.
        """
        sid = connection.sid
        sender = self.sender
        # What the log held before this process tails it counts as delivered here.
        await sender.tailer.ready()
        async with sender.deliveries:
            delivered = sender.tailer.delivered.offsets()
            try:
                seen, answers = await self._missed(connection, resume, channels, delivered)
            except DatabaseError as exc:
                if not is_transient(exc):
                    raise
                # Nothing sent yet: refused, the session kept for the next try.
                raise to_feathers_error(exc) from exc
            allowed = iter(answers)
            for row, payload in seen:
                if row["read"] is not None and not next(allowed):
                    continue
                name = f"{row['path']} {row['event']}"
                offset = resume.client.with_prefix_of(delivered, row["id"]).encode()
                await fanout.Manager.emit(self.sio.manager, name, (payload, offset), "/", to=sid)
            for name in channels:
                await self.sio.enter_room(sid, name)
            if delivered.union(resume.client) != delivered:
                sender.skips[sid] = resume.client
            known = delivered.union(resume.client)
        self.pids[sid] = resume.pid
        await self._store(sessions.save, resume.pid, connection, channels, known)

    async def _missed(
        self, connection: Connection, resume: Resume, channels: list[str], delivered: Offsets
    ) -> tuple[list[tuple[Any, Any]], list[bool]]:
        """The events `connection` missed in `channels`, with their data, and their checks."""
        rows = await self.workers.run(None, sessions.missed_rows, resume.client, delivered)
        joined = set(channels)
        seen = [(row, _payload_for(row, joined)) for row in rows]
        seen = [(row, payload) for row, payload in seen if payload is not _UNSEEN]
        # The read checks of every event, in one worker thread: the answer waits for them.
        checks = [row["read"] for row, _ in seen if row["read"] is not None]
        user = connection.user if reads.user_key(connection) is not None else None
        answers = await self.workers.run(None, reads.readable_each, checks, user) if checks else []
        return seen, answers

    async def begin(self, connection: Connection) -> None:
        """Give a new connection its session (its channels joined already)."""
        pid = sessions.new_pid()
        await self.sender.tailer.ready()
        async with self.sender.deliveries:
            delivered = self.sender.tailer.delivered.offsets()
        self.pids[connection.sid] = pid
        await self._store(sessions.save, pid, connection, self.channels(connection.sid), delivered)

    async def changed(self, connection: Connection) -> None:
        """Store a connection's new login and channels (after a login or a logout)."""
        pid = self.pids.get(connection.sid)
        if pid is not None:
            channels = self.channels(connection.sid)
            await self._store(sessions.save, pid, connection, channels)

    async def end(self, connection: Connection, reason: Any) -> None:
        """
        A connection gone: keep its session when its connection was lost (or the server is
        stopping), else forget it. Before its login and channels are forgotten.
        """
        sid = connection.sid
        self.sender.skips.pop(sid, None)
        pid = self.pids.pop(sid, None)
        if pid is None:
            return
        if reason in LOST or self.stopping:
            channels = self.channels(sid)
            await self._store(sessions.save, pid, connection, channels, None, True)
        else:
            await self._store(sessions.forget, pid)

    async def _store(self, function: Any, *args: Any) -> None:
        """Write a session (a worker thread); a database that fails it costs its recovery only."""
        try:
            await self.workers.run_in_sessions_thread(function, *args)
        except DatabaseError as exc:
            logger.warning("A socket.io session could not be stored: %s", exc)

    def channels(self, sid: str) -> list[str]:
        """The channels (rooms) `sid` is in, but its own."""
        return [room for room in self.sio.rooms(sid) if room != sid]


_UNSEEN = object()


def _payload_for(row: Mapping[str, Any], joined: set[str]) -> Any:
    """The data a socket in `joined` gets of a logged event: its first channel's, or none."""
    for item in row["channels"]:
        if not joined.isdisjoint(item["names"]):
            return item["data"] if "data" in item else row["data"]
    return _UNSEEN


def with_pids(packet_class: type, pids: Mapping[str, str]) -> type:
    """`packet_class` whose CONNECT answers carry the socket's `pid` from `pids`."""

    class RecoveryPacket(packet_class):
        def encode(self) -> Any:
            data: Any = getattr(self, "data", None)
            if self.packet_type == packet.CONNECT and isinstance(data, dict):
                pid = pids.get(data.get("sid"))  # type: ignore[arg-type]
                if pid is not None:
                    self.data = {**data, "pid": pid}
            return super().encode()

    RecoveryPacket.__name__ = RecoveryPacket.__qualname__ = f"Recovery{packet_class.__name__}"
    return RecoveryPacket

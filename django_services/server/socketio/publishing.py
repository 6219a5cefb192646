"""
Sending a service event to the sockets of its channels whose user may read it.

    sender = EventSender(sio, connections, workers)
    sender.publish(event, publisher, loop)       # in the thread that committed the write

The publisher chooses the channels in the committing thread. The read rule (`reads`) is then
checked there too for this process's sockets, once per distinct user, before the write's
answer leaves; the event leaves from the event loop. Other processes (through Redis) check
the rule for their own sockets, in a worker thread, as does this one for an event published
from its event loop.

An event written to the event log (`event_log`) travels whole, with its id: each process
sends it to its own sockets once (`deliver`), whether it comes live, through Redis or from the
log (`tailer`), each connection getting the data of the first of its channels that has some,
one event at a time (`deliveries`). With connection state recovery on (`recovery`), its last
argument is the offset of socket.io's protocol: the events this process had sent, this one
included (`offsets`), the same for every socket.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from socketio.async_pubsub_manager import AsyncPubSubManager

from ... import clock
from ..database_errors import is_transient
from ..pipeline.events import ServiceEvent
from . import event_log, fanout, reads
from .channels import Channel, resolve_channels
from .connection import Connection
from .offsets import Offsets
from .tailer import LATE_COMMIT, Tailer, read_ids
from .workers import CallWorkers

__all__ = ["GROUPS_TIMEOUT", "EventSender", "chosen_channels"]

logger = logging.getLogger("django_services.server")

#: Seconds the committing thread waits for the event loop to name an event's recipients.
GROUPS_TIMEOUT = 5.0


def chosen_channels(publisher: Any, event: ServiceEvent) -> tuple[list[Channel], Any]:
    """
    The channels and read rule of `event`: those its log entry holds (chosen in the write's
    transaction), or else asked of `publisher` and `reads.rule` now.
    """
    entry = event.entry
    if entry is not None:
        return entry.channels, entry.read
    channels = resolve_channels(publisher, event)
    return channels, (reads.rule(event) if channels else None)


class EventSender:
    """The events of one socket.io server: their channels, their read rule, their sending."""

    def __init__(self, sio: Any, connections: dict[str, Connection], workers: CallWorkers) -> None:
        self.sio = sio
        self.connections = connections
        self.workers = workers
        self._order: asyncio.Lock | None = None
        self._deliveries: asyncio.Lock | None = None
        #: Whether events carry their offset (connection state recovery is on).
        self.carry_offsets: Callable[[], bool] = lambda: False
        #: The offsets recovered sockets were sent by another process, which this one has not
        #: delivered yet: those events are not sent to them again (see `recovery`).
        self.skips: dict[str, Offsets] = {}
        #: The tail of the event log in this process, and the offsets it delivered.
        self.tailer = Tailer(self.deliver, workers)
        if isinstance(sio.manager, fanout.Manager):
            sio.manager.read_filter = self.readers
        if isinstance(sio.manager, fanout.RedisManager):
            sio.manager.logged_handler = self.receive_logged

    def publish(self, event: ServiceEvent, publisher: Any, loop: asyncio.AbstractEventLoop) -> None:
        """Send `event` from `loop` to the channels `publisher` chooses, to their readers."""
        channels, read = chosen_channels(publisher, event)
        if channels:
            name = f"{event.path} {event.event}"
            checked = None if read is None else self._check_here(read, channels, loop)
            offset = None if event.entry is None else event.entry.offset
            if offset is not None and isinstance(self.sio.manager, fanout.Manager):
                send = self._send_logged(offset, name, event.data, channels, read, checked)
            else:
                send = self._send(name, event.data, channels, read, checked)
            asyncio.run_coroutine_threadsafe(send, loop)

    async def _send_logged(
        self,
        offset: int,
        name: str,
        data: Any,
        channels: list[Channel],
        read: Any,
        checked: Any = None,
    ) -> None:
        """A logged event: to this process's sockets, then to the other processes (Redis)."""
        if self._order is None:
            self._order = asyncio.Lock()
        async with self._order:
            try:
                await self.deliver(offset, name, data, channels, read, checked)
            finally:
                # The other processes check and send it for their own sockets either way.
                manager = self.sio.manager
                if isinstance(manager, fanout.RedisManager):
                    await manager.publish_logged(
                        event_log.logged_message(offset, name, data, channels, read)
                    )

    async def deliver(
        self,
        offset: int,
        name: str,
        data: Any,
        channels: Any,
        read: Any,
        checked: Any = None,
        look_below: bool = True,
        from_tail: bool = False,
    ) -> None:
        """
        Send the logged event `offset` to this process's sockets in `channels` (Channel
        objects, or as the log stores them), once however many times it comes, after the
        events below it that committed before it and have not come yet (`look_below`: read
        from the log, one SELECT, when some are awaited). `from_tail`: the tail of the log
        delivers it, ready or becoming so.
        """
        if not from_tail:
            # Nothing is delivered before the tail knows where the log ended when it started:
            # what was logged before is not this process's to send. The tail's own first
            # read, which the server waits for before it listens, must not wait for itself.
            self.tailer.start()
            await self.tailer.ready()
        async with self.deliveries:
            delivered = self.tailer.delivered
            if not delivered.is_new(offset):
                return
            if look_below and self.connections:
                # An event of the same record committed earlier, through another process
                # or in a Redis message still on its way, is delivered first.
                awaited = delivered.awaited(offset, clock.monotonic(), LATE_COMMIT)
                if awaited:
                    for row in await self.workers.run(None, read_ids, awaited):
                        name_below = f"{row['path']} {row['event']}"
                        await self._deliver_one(
                            row["id"], name_below, row["data"], row["channels"], row["read"]
                        )
            await self._deliver_one(offset, name, data, channels, read, checked)

    async def _deliver_one(
        self,
        offset: int,
        name: str,
        data: Any,
        channels: Any,
        read: Any,
        checked: Any = None,
    ) -> None:
        delivered = self.tailer.delivered
        if not delivered.claim(offset):
            return
        if channels and isinstance(channels[0], dict):
            channels = event_log.channels_from_json(channels)
        sent = delivered.offsets() if self.carry_offsets() else None
        skip = [sid for sid, seen in self.skips.items() if offset in seen] or None
        try:
            await self._send_here(name, data, channels, read, checked, sent, skip)
        except BaseException as exc:
            # Not sent (its read check failed): the log's tail sends it again.
            delivered.missing[offset] = clock.monotonic()
            if isinstance(exc, Exception):
                logger.warning(
                    "The event %s could not be sent now, the log's tail will: %r", offset, exc
                )
            raise
        if self.skips:
            for sid, seen in list(self.skips.items()):
                if sent is not None and sent.union(seen) == sent:
                    del self.skips[sid]

    @property
    def deliveries(self) -> asyncio.Lock:
        """Held while an event is delivered: what a socket is sent stays in offset order."""
        if self._deliveries is None:
            self._deliveries = asyncio.Lock()
        return self._deliveries

    async def receive_logged(self, message: dict[str, Any]) -> None:
        """A logged event another process published (Redis)."""
        await self.deliver(
            message["offset"],
            message["event"],
            message["data"][0],
            message["channels"],
            message.get("read"),
        )

    async def _send_here(
        self,
        name: str,
        data: Any,
        channels: list[Channel],
        read: Any,
        checked: Any,
        sent: Offsets | None = None,
        skip: list[str] | None = None,
    ) -> None:
        """
        To this process's sockets of `channels` but `skip`, each once, with its first
        channel's data, and the offset `sent` as the last argument if given.
        """
        manager = self.sio.manager
        offset = None if sent is None else sent.encode()
        if not any(item.has_data for item in channels):
            rooms = [room for item in channels for room in item.names]
            # `fanout.Manager.emit`: this process's sockets only, even with Redis.
            await fanout.Manager.emit(
                manager,
                name,
                data if offset is None else (data, offset),
                "/",
                to=rooms,
                skip_sid=skip,
                read=read,
                checked=checked,
            )
            return
        groups = _by_first_channel(manager, channels, data, set(skip or ()))
        # Every group's readers are checked before any is sent: a check that fails leaves
        # the event to the log's tail whole, and no socket gets it twice.
        sends = [(_with(payload, offset), sids) for payload, sids in groups.values()]
        await fanout.Manager.emit_each(manager, name, sends, "/", read=read, checked=checked)

    def _check_here(
        self, read: Any, channels: list[Channel], loop: asyncio.AbstractEventLoop
    ) -> dict[str, Any] | None:
        """
        In the committing thread: `{sid: (user key, may read)}` of this process's sockets in
        `channels` (`reads.verdicts`), checked before the write's answer leaves. None when
        this thread is the loop's (the fan-out then checks, in a worker thread).
        """
        with contextlib.suppress(RuntimeError):
            if asyncio.get_running_loop() is loop:
                return None
        rooms = [room for item in channels for room in item.names]
        groups = asyncio.run_coroutine_threadsafe(self._groups(rooms), loop)
        try:
            found = groups.result(GROUPS_TIMEOUT)
        except concurrent.futures.TimeoutError:
            # A loop too busy to answer: the fan-out checks, in a worker thread.
            groups.cancel()
            return None
        if not found:
            return {}
        try:
            return reads.verdicts(read, found)
        except Exception as exc:
            if not is_transient(exc):
                raise
            # The database failed the check (its connection ended): the fan-out checks.
            return None

    async def _groups(self, rooms: list[str]) -> dict[Any, tuple[Any, list[str]]]:
        sids = [sid for sid, _ in self.sio.manager.get_participants("/", rooms)]
        return reads.user_groups(sids, self.connections)

    async def readers(self, read: Any, sids: list[str], checked: Any = None) -> list[str]:
        """The sockets among `sids` whose user may read an event (`reads.recipients`)."""
        return await reads.recipients(read, sids, self.connections, self._run_check, checked)

    async def _run_check(self, function: Any, *args: Any) -> Any:
        return await self.workers.run(None, function, *args)

    async def _emit(self, name: str, data: Any, rooms: list[str], read: Any, checked: Any) -> None:
        """One emit, checked by the read rule `read` (None: none)."""
        manager = self.sio.manager
        if read is None:
            await self.sio.emit(name, data, to=rooms)
        elif isinstance(manager, fanout.Manager):
            await manager.emit(name, data, "/", to=rooms, read=read, checked=checked)
        else:
            # A client manager of the project's own: its local sockets, checked here.
            sids = [sid for sid, _ in manager.get_participants("/", rooms)]
            allowed = await self.readers(read, sids, checked) if sids else []
            if allowed:
                await self.sio.emit(name, data, to=allowed)

    async def _send(
        self, name: str, data: Any, channels: list[Channel], read: Any = None, checked: Any = None
    ) -> None:
        """
        Send an event the log does not hold to each connection of `channels` once, with its
        channel's data, if its user may read it (`read` and `checked`, see `reads`); with the
        offset of what was delivered before it, when events carry one.
        """
        if not self.carry_offsets():
            await self._send_unlogged(name, data, channels, read, checked, None)
            return
        async with self.deliveries:
            offset = self.tailer.delivered.offsets().encode()
            await self._send_unlogged(name, data, channels, read, checked, offset)

    async def _send_unlogged(
        self,
        name: str,
        data: Any,
        channels: list[Channel],
        read: Any,
        checked: Any,
        offset: str | None,
    ) -> None:
        rooms = [room for item in channels for room in item.names]
        if not any(item.has_data for item in channels):
            await self._emit(name, _with(data, offset), rooms, read, checked)
            return
        if isinstance(self.sio.manager, AsyncPubSubManager):
            # Other processes' connections are not known here: one emit per channel.
            for item in channels:
                payload = item.data if item.has_data else data
                await self._emit(name, _with(payload, offset), list(item.names), read, checked)
            return
        groups = _by_first_channel(self.sio.manager, channels, data, set())
        for payload, sids in groups.values():
            await self._emit(name, _with(payload, offset), sids, read, checked)


def _by_first_channel(
    manager: Any, channels: list[Channel], data: Any, skipped: set[str]
) -> dict[int, tuple[Any, list[str]]]:
    """
    This process's sockets of `channels` but `skipped`, each once, grouped by the data it gets:
    that of the first of its channels, or `data` where that channel has none of its own.
    """
    groups: dict[int, tuple[Any, list[str]]] = {}
    reached: set[str] = set()
    for item in channels:
        payload = item.data if item.has_data else data
        for room in item.names:
            for sid, _ in manager.get_participants("/", room):
                if sid not in reached and sid not in skipped:
                    reached.add(sid)
                    groups.setdefault(id(item), (payload, []))[1].append(sid)
    return groups


def _with(data: Any, offset: str | None) -> Any:
    """An event's data with its offset as the last argument (python-socketio's tuple)."""
    return data if offset is None else (data, offset)

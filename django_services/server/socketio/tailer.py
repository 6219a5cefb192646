"""
Each socket.io server process tails the event log, so that no committed event is lost.

    tailer = Tailer(deliver, workers)
    tailer.start()                    # on the server's event loop
    await deliver(offset, ...)        # every delivery, live or from the log, claims its offset

An event normally reaches the sockets at once, after its write commits: from the committing
process, and through Redis to the others, carrying its offset (its id in the log). A process
killed between its commit and that send, or a Redis message lost, leaves the event in the log
only: every `SOCKETIO_RECOVERY["POLL_INTERVAL"]` seconds (on `django_services.clock`) each
process reads the rows it has not seen, in one indexed SELECT, and delivers those that no live
path delivered. `Delivered` makes that exactly once per process.

Ids are handed out at INSERT and become visible at COMMIT, so on PostgreSQL a lower id can
appear after a higher one. A missing id (a gap) holds the rows above it back for at most
`SOCKETIO_RECOVERY["GAP_GRACE"]` seconds; after that they go, and the late row is still read
(by id) and delivered when it appears, for as long as the log keeps events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.db import close_old_connections

from ... import clock
from ..database_errors import is_transient, retried_once
from .event_log import prune_now_and_then, recovery_setting
from .offsets import Offsets

__all__ = ["LATE_COMMIT", "MAX_GAPS", "Delivered", "Tailer", "log_end", "read_ids", "read_rows"]

logger = logging.getLogger("django_services.server")

#: The missing ids a process waits for at most; beyond, the oldest are given up.
MAX_GAPS = 1000

#: The seconds within which a transaction that logged an event commits: an id missing longer
#: is taken for rolled back, and the events above it no longer look for it before they go.
LATE_COMMIT = 2.0


class Delivered:
    """
    The logged events one process has delivered: every id up to `top` but the `missing`
    ones, each missing id with the `clock.monotonic()` time it was found missing.
    """

    def __init__(self, top: int = 0) -> None:
        self.top = top
        self.missing: dict[int, float] = {}

    def start(self, top: int, gaps: list[int], now: float) -> None:
        """
        Take what was logged up to `top` as not this process's to deliver, but the `gaps` below
        it: those may still commit, and are then delivered as any late row.
        """
        if top <= self.top:
            return
        for offset in gaps:
            if offset > self.top:
                self.missing.setdefault(offset, now)
        self.top = top

    def claim(self, offset: int, now: float | None = None) -> bool:
        """Whether `offset` is still to deliver here; from now on it is delivered."""
        if offset > self.top:
            self.note_missing(offset, clock.monotonic() if now is None else now)
            self.missing.pop(offset, None)
            self.top = offset
            return True
        return self.missing.pop(offset, None) is not None

    def note_missing(self, offset: int, now: float) -> None:
        """A row `offset` was seen: the ids between `top` and it are missing from now on."""
        for missing in range(max(self.top + 1, offset - MAX_GAPS), offset):
            self.missing.setdefault(missing, now)

    def is_new(self, offset: int) -> bool:
        """Whether `offset` is not delivered yet."""
        return offset > self.top or offset in self.missing

    def awaited(self, offset: int, now: float, limit: float) -> list[int]:
        """
        The ids below `offset` not delivered that may still commit: those between the top
        and it, and the missing ones found missing less than `limit` seconds ago.
        """
        awaited = [
            missing
            for missing, since in self.missing.items()
            if missing < offset and now - since < limit
        ]
        awaited.extend(range(max(self.top + 1, offset - MAX_GAPS), offset))
        return sorted(awaited)

    def held(self, offset: int, now: float, grace: float) -> bool:
        """Whether a missing id below `offset`, younger than `grace`, holds it back."""
        return any(
            missing < offset and now - since < grace for missing, since in self.missing.items()
        )

    def forget(self, now: float, window: float) -> None:
        """Give up missing ids older than `window` seconds, and the oldest beyond `MAX_GAPS`."""
        for missing in [missing for missing, since in self.missing.items() if now - since > window]:
            del self.missing[missing]
        for missing in sorted(self.missing)[: max(0, len(self.missing) - MAX_GAPS)]:
            del self.missing[missing]

    def offsets(self) -> Offsets:
        """What has been delivered, as the offset events carry (`offsets.Offsets`)."""
        top = self.top
        # The tailer notes ids missing below a row it holds back, above the top too.
        return Offsets(top, frozenset(offset for offset in self.missing if offset <= top))


def read_rows(top: int, missing: list[int]) -> list[dict[str, Any]]:
    """The logged events above `top` or among `missing`, by id: one SELECT (a worker thread)."""
    from django.db.models import Q

    from ...models import LoggedEvent

    close_old_connections()
    try:
        wanted = Q(id__gt=top) | Q(id__in=missing) if missing else Q(id__gt=top)
        rows = LoggedEvent.objects.filter(wanted).order_by("id")
        return list(rows.values("id", "path", "event", "data", "channels", "read"))
    finally:
        close_old_connections()


def read_ids(ids: list[int]) -> list[dict[str, Any]]:
    """
    The logged events `ids` that are there, by id: one SELECT (a worker thread), once more on
    a new connection after a transient database error.
    """
    return retried_once(_read_ids, ids)


def _read_ids(ids: list[int]) -> list[dict[str, Any]]:
    from ...models import LoggedEvent

    rows = LoggedEvent.objects.filter(id__in=ids).order_by("id")
    return list(rows.values("id", "path", "event", "data", "channels", "read"))


def _prune() -> None:
    close_old_connections()
    try:
        prune_now_and_then()
    finally:
        close_old_connections()


def log_end() -> tuple[int, list[int]]:
    """
    Where a new process starts tailing: the id of the newest logged event (0: none), and the
    ids missing between the last `MAX_GAPS` rows, which may be writes still committing
    elsewhere (a lower id can commit after a higher one) rather than rolled back.
    """
    from ...models import LoggedEvent

    close_old_connections()
    try:
        ids = list(LoggedEvent.objects.order_by("-id").values_list("id", flat=True)[:MAX_GAPS])
    finally:
        close_old_connections()
    if not ids:
        return 0, []
    present = set(ids)
    return ids[0], [offset for offset in range(ids[-1] + 1, ids[0]) if offset not in present]


class Tailer:
    """The tail of the event log in one process: `deliver` gets what no live path delivered."""

    def __init__(self, deliver: Callable[..., Awaitable[None]], workers: Any) -> None:
        self.deliver = deliver
        self.workers = workers
        self.delivered = Delivered()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._started = asyncio.Event()

    def start(self) -> None:
        """Start tailing on the running event loop (once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop tailing."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def ready(self) -> None:
        """Wait until the tailer knows where the log ends (at its start)."""
        await self._started.wait()

    def wake(self) -> None:
        """Read the log now (a process that committed, or a test)."""
        self._wake.set()

    async def _run(self) -> None:
        known = False
        while True:
            held = False
            try:
                if not known:
                    # What was logged before this process tails the log is not its to
                    # deliver; what it delivered live meanwhile stays as it is.
                    top, gaps = await self.workers.run(None, log_end)
                    self.delivered.start(top, gaps, clock.monotonic())
                    known = True
                held = await self.catch_up()
            except Exception as exc:
                if not is_transient(exc):
                    logger.exception("The event log could not be read.")
                else:
                    # The database is away for a moment: read it again at the next turn.
                    logger.warning("The event log could not be read now: %s", exc)
            finally:
                # A database down at start holds no delivery back: the log is read later.
                self._started.set()
            wait = float(recovery_setting("POLL_INTERVAL"))
            if held:
                wait = min(wait, float(recovery_setting("GAP_GRACE")))
            await self._sleep(wait)

    async def _sleep(self, seconds: float) -> None:
        sleeper = asyncio.ensure_future(clock.current().asleep(seconds))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()
            self._wake.clear()

    async def catch_up(self) -> bool:
        """Deliver the rows no live path delivered; whether a missing id holds some back."""
        delivered = self.delivered
        rows = await self.workers.run(None, read_rows, delivered.top, sorted(delivered.missing))
        grace = float(recovery_setting("GAP_GRACE"))
        held = False
        for row in rows:
            offset = row["id"]
            now = clock.monotonic()
            if not delivered.is_new(offset):
                continue
            delivered.note_missing(offset, now)
            if delivered.held(offset, now, grace):
                held = True
                break
            # `deliver` claims the offset: nothing if a live send delivered it meanwhile. The
            # ids below it were read just now.
            await self.deliver(
                offset,
                f"{row['path']} {row['event']}",
                row["data"],
                row["channels"],
                row["read"],
                look_below=False,
                from_tail=True,
            )
        delivered.forget(clock.monotonic(), float(recovery_setting("WINDOW")))
        # The log is pruned by its readers, now and then.
        await self.workers.run(None, _prune)
        return held

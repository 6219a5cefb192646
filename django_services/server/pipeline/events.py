"""
Service events: `created`, `updated`, `patched`, `removed` and a service's own, after commit.

    def notify(message, context):
        print(f"{context.path}: message {message['id']} created")

    get_service("messages").on("created", notify)

    class OrderService(ModelService):
        events = ["shipped"]                         # custom events this service may emit

        @service_method
        def ship(self, data, params):
            ...
            self.emit("shipped", {"id": order.pk})   # sent once the transaction commits

    event_bus.subscribe(publish)     # every event of every service, as a ServiceEvent

A successful `create`, `update`, `patch` or `remove` emits its event once the transaction it
ran in commits (`transaction.on_commit`), so a rolled-back write emits nothing. With a
socket.io publisher (`SOCKETIO_PUBLISHER`), the events are first written to the event log
(`socketio.event_log`) inside that transaction. A call whose result is a list (a multi write)
emits one event per record, in order, as Feathers does. The
data of an event is the result the caller received, after the `after` hooks.

Listeners run in the thread that committed, one after another; one that raises is logged
(`django_services.server`) and the others still run. The bus is in-process: a transport that
fans events out to other processes (socket.io) subscribes to it and publishes from there.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import logging
import threading
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any

from django.db import transaction

from ...conf import services_settings

__all__ = ["EventBus", "ServiceEvent", "event_bus", "schedule_events"]

logger = logging.getLogger("django_services.server")

Listener = Callable[[Any, Any], Any]


@dataclasses.dataclass(frozen=True)
class ServiceEvent:
    """One event: the service path (as registered), its name, the record, the call context."""

    path: str | None
    event: str
    data: Any
    context: Any = dataclasses.field(repr=False, compare=False, default=None)
    #: Its entry in the event log (`socketio.event_log.Entry`: offset, channels, read rule),
    #: written with the write when a publisher is set; None otherwise.
    entry: Any = dataclasses.field(repr=False, compare=False, default=None)


class EventBus:
    """Listeners of service events, by service path and event name, plus subscribers to all."""

    def __init__(self) -> None:
        self._listeners: dict[tuple[str | None, str], list[Listener]] = {}
        self._subscribers: list[Callable[[ServiceEvent], Any]] = []
        self._lock = threading.Lock()

    def on(self, path: str | None, event: str, listener: Listener) -> None:
        """Call `listener(data, context)` for each `event` of the service at `path`."""
        with self._lock:
            self._listeners.setdefault((path, event), []).append(listener)

    def off(self, path: str | None, event: str, listener: Listener) -> None:
        """Stop calling `listener` for `event` of the service at `path` (ValueError if not on)."""
        with self._lock:
            listeners = self._listeners.get((path, event), [])
            listeners.remove(listener)

    def subscribe(self, subscriber: Callable[[ServiceEvent], Any]) -> None:
        """Call `subscriber(event)` with every event of every service."""
        with self._lock:
            self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Callable[[ServiceEvent], Any]) -> None:
        """Stop calling `subscriber` (ValueError if it was not subscribed)."""
        with self._lock:
            self._subscribers.remove(subscriber)

    def listening(self, path: str | None, event: str) -> bool:
        """Whether anything would receive `event` of the service at `path`."""
        return bool(self._subscribers or self._listeners.get((path, event)))

    def publish(self, event: ServiceEvent) -> None:
        """Deliver `event` now to its listeners, then to the subscribers."""
        with self._lock:
            listeners = list(self._listeners.get((event.path, event.event), ()))
            subscribers = list(self._subscribers)
        for listener in listeners:
            _deliver(listener, event, event.data, event.context)
        for subscriber in subscribers:
            _deliver(subscriber, event, event)


def _deliver(receiver: Callable[..., Any], event: ServiceEvent, *args: Any) -> None:
    try:
        receiver(*args)
    except Exception:
        logger.exception(
            "A listener of the %r event of the service %r failed.", event.event, event.path
        )


@functools.cache
def _event_log() -> ModuleType:
    # The socket.io transport, which imports this module, keeps the log of the events it sends.
    return importlib.import_module("django_services.server.socketio.event_log")


#: The event bus of the project.
event_bus = EventBus()


def schedule_events(
    path: str | None, event: str, records: Collection[Any], context: Any, using: str | None
) -> None:
    """
    Publish one `event` per record once the transaction open on `using` commits (at once
    outside a transaction); nothing if it rolls back.
    """
    logged = path is not None and services_settings.SOCKETIO_PUBLISHER is not None
    if not records or not (logged or event_bus.listening(path, event)):
        return
    events = [ServiceEvent(path, event, record, context) for record in records]
    if logged:
        # In the write's transaction: the events exist exactly when the write commits.
        events = _event_log().write(events, using)

    def publish() -> None:
        for item in events:
            event_bus.publish(item)
        if logged:
            _event_log().prune_now_and_then(using)

    transaction.on_commit(publish, using=using)

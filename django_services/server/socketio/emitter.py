"""
Publishing service events from processes that serve no sockets, through Redis.

    DJANGO_SERVICES = {
        "SOCKETIO_PUBLISHER": "chat.realtime.ChatPublisher",
        "SOCKETIO_REDIS_URL": "redis://redis.internal:6379/0",
    }

With `SOCKETIO_REDIS_URL` set, every socket.io server process shares python-socketio's Redis
manager, so an event sent by one reaches the sockets of all. Processes without a socket.io
server (gunicorn WSGI workers, management commands, task workers) publish through a write-only
Redis manager: `install()` (called when Django starts) subscribes it to the event bus. In a
process that runs a socket.io server, that server publishes and the emitter stays quiet.
Each event's read rule (`reads`) travels with it: the socket.io processes check it for their
own sockets.
"""

from __future__ import annotations

import threading
from typing import Any

from ...conf import services_settings
from ..pipeline.events import ServiceEvent, event_bus
from . import event_log, reads
from .channels import get_publisher
from .publishing import chosen_channels

__all__ = ["install", "redis_channel", "redis_url", "server_started", "server_stopped"]

_lock = threading.Lock()
_servers = 0
_managers: dict[tuple[str, str], Any] = {}
_installed = False


def redis_url() -> str | None:
    """`DJANGO_SERVICES["SOCKETIO_REDIS_URL"]`, or None."""
    return services_settings.SOCKETIO_REDIS_URL


def redis_channel() -> str:
    """`DJANGO_SERVICES["SOCKETIO_REDIS_CHANNEL"]`: the pub/sub channel of the project."""
    return services_settings.SOCKETIO_REDIS_CHANNEL


def server_started() -> None:
    """A socket.io server runs in this process: it publishes, the emitter must not."""
    global _servers
    with _lock:
        _servers += 1


def server_stopped() -> None:
    """A socket.io server of this process stopped."""
    global _servers
    with _lock:
        _servers -= 1


def install() -> None:
    """Subscribe the write-only emitter to the event bus (once per process)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    event_bus.subscribe(_publish)


def _publish(event: ServiceEvent) -> None:
    url = redis_url()
    if url is None or _servers > 0 or event.path is None:
        return
    publisher = get_publisher()
    if publisher is None:
        return
    channels, read = chosen_channels(publisher, event)
    if not channels:
        return
    manager = _manager(url)
    name = f"{event.path} {event.event}"
    offset = None if event.entry is None else event.entry.offset
    if offset is not None:
        # The whole event in one message: each socket.io process delivers it once.
        message = event_log.logged_message(offset, name, event.data, channels, read)
        manager._publish({**message, "host_id": manager.host_id})
        return
    plain = [room for item in channels if not item.has_data for room in item.names]
    if plain:
        _emit(manager, name, event.data, plain, read)
    for item in channels:
        if item.has_data:
            _emit(manager, name, item.data, list(item.names), read)


def _emit(manager: Any, name: str, data: Any, rooms: list[str], read: Any) -> None:
    """Publish one emit; its read rule (`reads`) is checked by each socket.io process."""
    if read is None:
        manager.emit(name, data, namespace="/", room=rooms)
        return
    message = reads.emit_message(name, data, "/", rooms, read)
    message["host_id"] = manager.host_id
    manager._publish(message)


def _manager(url: str) -> Any:
    with _lock:
        channel = redis_channel()
        manager = _managers.get((url, channel))
        if manager is None:
            import socketio

            manager = socketio.RedisManager(url, channel=channel, write_only=True)
            _managers[url, channel] = manager
        return manager

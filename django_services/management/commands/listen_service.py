"""
`manage.py listen_service`: print the live events of a remote service, one JSON line each.

    $ python manage.py listen_service chat messages                  # created, updated...
    $ python manage.py listen_service chat todos --event markedAllComplete --count 1

The remote's `CONNECTION` must be `socketio` (or `socketio-async`). It runs until interrupted
(Ctrl-C, SIGTERM), or until `--count` events or `--timeout` seconds without one. Events go to
stdout; what the command is doing goes to stderr: a line once it listens, and one when it
stops, saying why. It exits with status 1 when `--timeout` ends it before `--count` events.
"""

from __future__ import annotations

import asyncio
import json
import queue
import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.utils.encoders import JSONEncoder

from django_services.client.remotes import RemoteDoesNotExist, remotes
from django_services.errors import FeathersError

STANDARD_EVENTS = ("created", "updated", "patched", "removed")


#: The exit status when `--timeout` ends the command before `--count` events arrived.
TIMEOUT_STATUS = 1


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = (
        "Listen to a remote service's events over socket.io and print each as a JSON line: "
        '{"path": ..., "event": ..., "data": ...}.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("remote", help="The alias of a socketio remote.")
        parser.add_argument("path", help="The service path, e.g. 'messages'.")
        parser.add_argument(
            "--event",
            action="append",
            dest="events",
            metavar="NAME",
            help="An event to print (repeatable); the four standard events by default.",
        )
        parser.add_argument("--count", type=int, help="Stop after this many events.")
        parser.add_argument(
            "--timeout", type=float, help="Stop after this many seconds without an event."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            remote = remotes[options["remote"]]
        except RemoteDoesNotExist as exc:
            raise CommandError(str(exc)) from exc
        transport = remote.config.transport_class
        if getattr(transport, "name", "") not in ("socketio", "socketio-async"):
            raise CommandError(
                f"The remote {remote.alias!r} connects with "
                f"{getattr(transport, 'name', transport)!r}: "
                'events need "CONNECTION": "socketio".'
            )
        names = tuple(options["events"] or STANDARD_EVENTS)
        count, timeout = options["count"], options["timeout"]
        self.printed = 0
        self.listening = f"{', '.join(names)} of {options['path']!r} on {remote.alias!r}"
        try:
            if remote.is_async:
                ended = asyncio.run(
                    self._listen_async(remote, options["path"], names, count, timeout)
                )
            else:
                ended = self._listen(remote, options["path"], names, count, timeout)
        except FeathersError as error:
            raise CommandError(f"Can not listen to {options['path']!r}: {error}") from error
        except KeyboardInterrupt:
            ended = "interrupted"
        finally:
            remote.close()
        summary = f"Stopped ({ended}) after {self.printed} event(s)."
        if ended.startswith("no event") and count is not None:
            raise CommandError(summary, returncode=TIMEOUT_STATUS)
        self.stderr.write(summary)

    def _started(self) -> None:
        self.stderr.write(f"Listening to {self.listening}; Ctrl-C to stop.")
        self.stderr.flush()

    def _print(self, event: Any) -> None:
        line = {"path": event.path, "event": event.name, "data": event.data}
        self.stdout.write(json.dumps(line, cls=JSONEncoder, ensure_ascii=False))
        self.stdout.flush()
        self.printed += 1

    def _listen(
        self, remote: Any, path: str, names: tuple[str, ...], count: int | None, timeout: Any
    ) -> str:
        stop = threading.Event()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
        with remote.service(path).events(*names) as stream:
            remote.connection.connect()
            self._started()
            idle = 0.0
            while count is None or self.printed < count:
                if stop.is_set():
                    return "terminated"
                try:
                    event = stream.arrived.get(timeout=0.2)
                except queue.Empty:
                    idle += 0.2
                    if timeout is not None and idle >= timeout:
                        return f"no event for {timeout:g} s"
                    continue
                idle = 0.0
                self._print(event)
        return f"{count} event(s) received"

    async def _listen_async(
        self, remote: Any, path: str, names: tuple[str, ...], count: int | None, timeout: Any
    ) -> str:
        try:
            async with remote.service(path).events(*names) as stream:
                self._started()
                while count is None or self.printed < count:
                    event = await asyncio.wait_for(anext(stream), timeout)
                    self._print(event)
        except asyncio.TimeoutError:
            return f"no event for {timeout:g} s"
        finally:
            await remote.aclose()
        return f"{count} event(s) received"

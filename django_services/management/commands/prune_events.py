"""
`manage.py prune_events`: delete the logged service events that recovery no longer needs.

    $ python manage.py prune_events
    Deleted 5120 logged events.

The event log (`django_services.models.LoggedEvent`) keeps the events of the last
`SOCKETIO_RECOVERY["WINDOW"]` seconds, at most `SOCKETIO_RECOVERY["MAX_EVENTS"]` of them; the
server deletes the rest now and then by itself, this command at once.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from django_services.server.socketio.event_log import prune


class Command(BaseCommand):
    help = "Delete the logged service events older than the recovery window or beyond its size."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database", default=None, help="The database alias of the log.")

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = prune(options["database"])
        noun = "event" if deleted == 1 else "events"
        self.stdout.write(f"Deleted {deleted} logged {noun}.")

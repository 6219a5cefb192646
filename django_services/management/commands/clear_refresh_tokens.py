"""
`manage.py clear_refresh_tokens`: delete the refresh tokens that have expired.

    $ python manage.py clear_refresh_tokens            # run daily, from cron or a scheduler
    Deleted 1204 expired refresh tokens.

An expired token is refused whatever its row says, so deleting it changes nothing a client
sees; spent and revoked tokens stay until they expire, so a reuse is still recognised.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from django_services import clock
from django_services.models import RefreshToken


class Command(BaseCommand):
    help = "Delete the refresh tokens that have expired."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted, _ = RefreshToken.objects.filter(expires_at__lt=clock.now()).delete()
        noun = "token" if deleted == 1 else "tokens"
        self.stdout.write(f"Deleted {deleted} expired refresh {noun}.")

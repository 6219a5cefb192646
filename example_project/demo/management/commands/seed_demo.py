"""
`python manage.py seed_demo`: create the demo users and data, and print how to log in.

Running it again creates nothing new; it only resets the demo password when it was changed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from demo.seed import DEMO_EMAIL, DEMO_PASSWORD, seed


class Command(BaseCommand):
    help = "Create the demo users, todos, messages and notes (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        result = seed()
        self.stdout.write(
            f"Demo data: {result.users} users, {result.todos} todos, "
            f"{result.messages} messages and {result.notes} notes created."
        )
        self.stdout.write(
            self.style.SUCCESS(f"Log in as {DEMO_EMAIL} with the password {DEMO_PASSWORD}")
        )

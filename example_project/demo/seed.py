"""
The demo data: two users with todos, a chat conversation, and notes.

    seed()     # creates what is missing; running it again changes nothing

The demo password is public on purpose: it is printed by `seed_demo` and shown on the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from accounts.models import User
from chat.models import Message
from notes.models import Note
from todos.models import Todo

DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "feathers-on-django"
#: A second user, so that the chat has two voices and notes can be shown to be private.
FRIEND_EMAIL = "friend@example.com"

#: The todos of each user: (text, complete).
TASKS = {
    DEMO_EMAIL: [
        ("Read the django-feathers README", True),
        ("Log in on the demo page", False),
        ("Add a todo from the browser", False),
        ("Try markAllComplete", False),
    ],
    FRIEND_EMAIL: [("Water the plants", False)],
}

NOTES = {
    DEMO_EMAIL: [
        "Notes live at users/:userId/notes: only their owner can read them.",
        "The page gets a token from the local strategy, or from the Django session.",
    ],
    FRIEND_EMAIL: ["The demo user cannot read this note."],
}

#: The chat, in order: (author, text). More than one page at the service's default of 10.
CONVERSATION = [
    (DEMO_EMAIL, "Hello! Is this chat served by Feathers?"),
    (FRIEND_EMAIL, "By Django REST Framework, speaking the Feathers REST contract."),
    (DEMO_EMAIL, "So a Feathers client cannot tell the difference?"),
    (FRIEND_EMAIL, "That is the idea: same paths, same query syntax, same errors."),
    (DEMO_EMAIL, "What does a page of messages look like?"),
    (FRIEND_EMAIL, "total, limit, skip and data, like any paginated Feathers service."),
    (DEMO_EMAIL, "And $limit above the maximum?"),
    (FRIEND_EMAIL, "Capped at 50 here, silently, as Feathers does."),
    (DEMO_EMAIL, "Can I search the messages?"),
    (FRIEND_EMAIL, "Try text[$ilike]=%django%: this service enables $like and $ilike."),
    (DEMO_EMAIL, "How do I sort them, newest first?"),
    (FRIEND_EMAIL, "$sort[createdAt]=-1."),
    (DEMO_EMAIL, "Who may change a message?"),
    (FRIEND_EMAIL, "Only its author: anyone else gets 403 Forbidden."),
    (DEMO_EMAIL, "And the userId of a new message?"),
    (FRIEND_EMAIL, "Always the caller's: the service sets it, whatever the body says."),
    (DEMO_EMAIL, "Where are the users?"),
    (FRIEND_EMAIL, "At users: sign up without a token, everything else needs one."),
    (DEMO_EMAIL, "Is my password ever sent back?"),
    (FRIEND_EMAIL, "Never: it is hashed, write-only and not even queryable."),
    (DEMO_EMAIL, "Nice. Time to try the todo list."),
    (FRIEND_EMAIL, "Have fun with the Feathers client in your browser!"),
]


@dataclass(frozen=True)
class SeedResult:
    """How many records `seed` created (zero everywhere on a second run)."""

    users: int
    todos: int
    messages: int
    notes: int


@transaction.atomic
def seed() -> SeedResult:
    """Create the demo users and their data, where missing; reset the demo password."""
    users: dict[str, User] = {}
    created_users = 0
    for email in (DEMO_EMAIL, FRIEND_EMAIL):
        user = User.objects.filter(email=email).first()
        if user is None:
            user = User.objects.create_user(email, DEMO_PASSWORD)
            created_users += 1
        elif not user.check_password(DEMO_PASSWORD) or not user.is_active:
            user.set_password(DEMO_PASSWORD)
            user.is_active = True
            user.save()
        users[email] = user
    demo = users[DEMO_EMAIL]
    if not demo.is_staff:
        # The demo user may also browse the admin site.
        demo.is_staff = demo.is_superuser = True
        demo.save()

    created_todos = sum(
        Todo.objects.get_or_create(owner=users[email], text=text, defaults={"complete": done})[1]
        for email, todos in TASKS.items()
        for text, done in todos
    )
    created_notes = sum(
        Note.objects.get_or_create(user=users[email], text=text)[1]
        for email, notes in NOTES.items()
        for text in notes
    )
    created_messages = sum(
        Message.objects.get_or_create(user=users[email], text=text)[1]
        for email, text in CONVERSATION
    )
    return SeedResult(created_users, created_todos, created_messages, created_notes)

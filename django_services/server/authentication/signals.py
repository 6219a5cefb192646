"""
Logins that end on the server, told to what keeps logins open: socket.io connections.

    logins_ended.connect(receiver)        # receiver(sender, ended=EndedLogins(...), **kwargs)
    end_logins(jti=payload["jti"])        # sent once the current transaction commits

A login ends with its user (a password change, `is_active=False`, a deletion: every login of
the user is checked again), with its token (denylisted by a logout, `revocation.revoke`), with
its refresh token family (`refresh.end_family`) or with the Django session it was made with (a
Django logout, or the session flushed or deleted). `install()` connects the Django signals that
say so: `post_save` and `post_delete` of the user model, `user_logged_out`, and `post_delete`
of `django.contrib.sessions`' model (the database session engines; a session kept only in a
cache ends unseen until the socket's next call). Nothing is sent while nobody listens.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal

__all__ = ["EndedLogins", "end_logins", "install", "logins_ended"]

logger = logging.getLogger("django_services.server")

#: Sent with `ended`, an `EndedLogins`, in the thread that committed.
logins_ended = Signal()

#: The user fields whose change can end a login.
_LOGIN_FIELDS = frozenset({"password", "is_active"})


@dataclasses.dataclass(frozen=True)
class EndedLogins:
    """
    Which logins ended: those of the user `user` (its primary key, as a string) that no
    longer hold, and every login made with the token `jti`, of the refresh token `family`,
    or with the Django session `session_key`.
    """

    user: str | None = None
    jti: str | None = None
    family: str | None = None
    session_key: str | None = None


def end_logins(
    *,
    user: Any = None,
    jti: Any = None,
    family: Any = None,
    session_key: Any = None,
    using: str | None = None,
) -> None:
    """Send `logins_ended` once the transaction open on `using` commits (at once outside one)."""
    if not logins_ended.has_listeners():
        return
    values = (user, jti, family, session_key)
    ended = EndedLogins(*(None if value is None else str(value) for value in values))
    transaction.on_commit(lambda: _send(ended), using=using)


def _send(ended: EndedLogins) -> None:
    # The change is committed: a receiver that fails is logged, and the request goes on.
    for receiver, result in logins_ended.send_robust(sender=EndedLogins, ended=ended):
        if isinstance(result, Exception):
            logger.error("A receiver of logins_ended failed: %r", receiver, exc_info=result)


def install() -> None:
    """Connect the Django signals that end logins (once: they are keyed)."""
    model = settings.AUTH_USER_MODEL
    post_save.connect(_user_saved, sender=model, weak=False, dispatch_uid=__name__ + ".saved")
    post_delete.connect(_user_deleted, sender=model, weak=False, dispatch_uid=__name__ + ".deleted")
    user_logged_out.connect(_logged_out, weak=False, dispatch_uid=__name__ + ".logged_out")
    if apps.is_installed("django.contrib.sessions"):
        from django.contrib.sessions.models import Session

        post_delete.connect(
            _session_deleted, sender=Session, weak=False, dispatch_uid=__name__ + ".session"
        )


def _user_saved(
    sender: Any, instance: Any, created: bool, update_fields: Any, using: str, **kwargs: Any
) -> None:
    if created or (update_fields is not None and _LOGIN_FIELDS.isdisjoint(update_fields)):
        return
    end_logins(user=instance.pk, using=using)


def _user_deleted(sender: Any, instance: Any, using: str, **kwargs: Any) -> None:
    end_logins(user=instance.pk, using=using)


def _logged_out(sender: Any, request: Any, user: Any = None, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None)
    if session_key:
        end_logins(session_key=session_key)


def _session_deleted(sender: Any, instance: Any, using: str, **kwargs: Any) -> None:
    end_logins(session_key=instance.session_key, using=using)

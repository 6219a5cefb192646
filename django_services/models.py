"""
The package's one model: the refresh tokens the authentication service issued.

Only a SHA-256 hash of each token is stored, so a copy of the table logs no one in; the rows say
who holds a login (`subject`), which login a token belongs to (`family`), when it was spent or
revoked, so logins can be listed, ended and audited. `manage.py clear_refresh_tokens` deletes the
expired ones.
"""

from __future__ import annotations

from django.db import models

__all__ = ["RefreshToken"]


class RefreshToken(models.Model):
    """
    One refresh token. Each refresh spends a token (`used_at`) and issues its heir in the same
    `family`; presenting a spent token revokes the whole family (`revoked_at`).
    """

    token_hash = models.CharField(max_length=64, unique=True)
    family = models.UUIDField(db_index=True)
    subject = models.CharField(max_length=255, db_index=True)
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "refresh token"
        ordering = ["issued_at"]

    def __str__(self) -> str:
        return f"refresh token of {self.subject} ({self.family})"

"""An authentication backend that refuses everyone, to prove the project's backends are used."""

from __future__ import annotations


class NobodyBackend:
    def authenticate(self, request, **credentials):
        return None

    def get_user(self, user_id):
        return None

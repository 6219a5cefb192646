"""A password hasher that counts its work, to compare the cost of failed logins exactly."""

from __future__ import annotations

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingMD5PasswordHasher(MD5PasswordHasher):
    """Django's MD5 hasher, counting every password it hashes (to store or to verify)."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        type(self).calls += 1
        return super().encode(password, salt)

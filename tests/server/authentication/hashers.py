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


class TransactionAwareMD5PasswordHasher(MD5PasswordHasher):
    """Django's MD5 hasher, noting for each password it hashes whether a transaction was open."""

    algorithm = "transaction_aware_md5"
    in_transaction: list[bool] = []

    def encode(self, password, salt):
        from django.db import connection

        type(self).in_transaction.append(connection.in_atomic_block)
        return super().encode(password, salt)

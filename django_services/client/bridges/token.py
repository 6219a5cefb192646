"""
The `token` bridge: the same token with every call.

    "AUTH": {"STRATEGY": "token", "TOKEN_ENV": "BILLING_TOKEN"}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.checks import CheckMessage

from .base import TokenHeader, check_variable, invalid, missing_credentials, read_environment

__all__ = ["StaticToken"]


class StaticToken(TokenHeader):
    """`token`: the same token with every call, from `TOKEN` or the variable `TOKEN_ENV`."""

    keys = TokenHeader.keys | {"TOKEN", "TOKEN_ENV"}

    @classmethod
    def check(cls, options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
        problems = super().check(options, setting)
        token, variable = options["TOKEN"], options["TOKEN_ENV"]
        if token is not None and variable is not None:
            problems.append(
                invalid(
                    f"{setting} sets both TOKEN and TOKEN_ENV.",
                    "Keep TOKEN_ENV: tokens belong in the environment, not in settings files.",
                )
            )
        elif token is not None:
            if not isinstance(token, str) or not token:
                problems.append(
                    invalid(
                        f"{setting}['TOKEN'] must be a non-empty string.",
                        "Or set TOKEN_ENV to the environment variable holding the token.",
                    )
                )
        elif variable is not None:
            problems.extend(check_variable(variable, f"{setting}['TOKEN_ENV']"))
        else:
            problems.append(
                missing_credentials(
                    f"{setting} uses the token strategy without a token.",
                    "Set TOKEN_ENV to the environment variable holding it (or TOKEN).",
                )
            )
        return problems

    def token(self) -> str:
        """The token: `TOKEN`, or the value of the environment variable `TOKEN_ENV`."""
        if self.options["TOKEN"] is not None:
            return self.options["TOKEN"]
        return read_environment(self.options["TOKEN_ENV"], self.alias, "['AUTH']['TOKEN_ENV']")

    def request_headers(self, credentials: Any, method: str) -> dict[str, str]:
        return self.token_header(self.token())

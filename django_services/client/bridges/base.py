"""
The base of every bridge, and what the bridges share.

    class ApiKeyBridge(Bridge):
        keys = frozenset({"KEY"})

        def request_headers(self, credentials, method):
            return {"X-Api-Key": self.options["KEY"]}

A bridge is made from the remote's `AUTH` (over `REMOTE_AUTH_DEFAULTS`); `check()` returns the
system check messages of its options.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django.core.checks import CheckMessage, Error, Warning
from django.core.exceptions import ImproperlyConfigured

from .._flow import Flow, call_flow

if TYPE_CHECKING:
    from .._base import Request
    from ..transports.base import BaseTransport

__all__ = [
    "Bridge",
    "TokenHeader",
    "check_variable",
    "invalid",
    "missing_credentials",
    "read_environment",
]


class Bridge:
    """
    Sends no credentials: the base of every bridge, and the bridge of a remote without `AUTH`.

    **Parameters:**

    * **alias** - the remote's alias in `REMOTES`.
    * **base_url** - the remote's `BASE_URL`.
    * **options** - the remote's `AUTH` over `REMOTE_AUTH_DEFAULTS`.
    """

    #: The `AUTH` keys the bridge reads, besides `STRATEGY` and `CLASS`.
    keys: ClassVar[frozenset[str]] = frozenset()
    #: Whether the bridge sends credentials taken from the incoming request.
    forwards: ClassVar[bool] = False

    def __init__(self, *, alias: str, base_url: str, options: Mapping[str, Any]) -> None:
        self.alias = alias
        self.base_url = base_url
        self.options = options
        self.strategy: str | None = options.get("STRATEGY")

    @classmethod
    def check(cls, options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
        """The problems of `options` (the `AUTH` dict found at `setting`), for system checks."""
        return []

    def credentials_of(self, request: Any) -> Any:
        """The credentials of an incoming Django request to send on, or `None`."""
        return None

    def request_headers(self, credentials: Any, method: str) -> dict[str, str]:
        """The headers of a call of `method` made with `credentials`."""
        return {}

    def flow(self, request: Request, connection: BaseTransport) -> Flow:
        """Run the call `request` over `connection`: by default, as its retries say."""
        return (yield from call_flow(connection, request))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} remote={self.alias!r} strategy={self.strategy!r}>"


class TokenHeader(Bridge):
    """A bridge sending a token in `HEADER` as `<SCHEME> <token>`."""

    keys = frozenset({"HEADER", "SCHEME"})

    @property
    def header(self) -> str:
        return self.options["HEADER"]

    @property
    def scheme(self) -> str:
        return self.options["SCHEME"]

    @classmethod
    def check(cls, options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
        problems = super().check(options, setting)
        if not isinstance(options["HEADER"], str) or not options["HEADER"].strip():
            problems.append(
                invalid(f"{setting}['HEADER'] must be a header name.", "Such as 'Authorization'.")
            )
        if not isinstance(options["SCHEME"], str) or " " in options["SCHEME"]:
            problems.append(
                invalid(
                    f"{setting}['SCHEME'] must be a word.",
                    "Such as 'Bearer' (the default), or '' to send the token alone.",
                )
            )
        return problems

    def token_header(self, token: str) -> dict[str, str]:
        """The header carrying `token`."""
        return {self.header: f"{self.scheme} {token}" if self.scheme else token}


def read_environment(variable: str, alias: str, setting: str) -> str:
    """The value of `variable`; `ImproperlyConfigured` naming the setting when it is not set."""
    value = os.environ.get(variable)
    if not value:
        raise ImproperlyConfigured(
            f"The environment variable {variable!r} (DJANGO_SERVICES['REMOTES'][{alias!r}]"
            f"{setting}) is not set."
        )
    return value


def invalid(message: str, hint: str) -> Error:
    """A check error: an `AUTH` option has a wrong value."""
    return Error(message, hint=hint, id="django_services.E206")


def missing_credentials(message: str, hint: str) -> Error:
    """A check error: the strategy has no credentials to send."""
    return Error(message, hint=hint, id="django_services.E207")


def check_variable(variable: Any, setting: str) -> list[CheckMessage]:
    """The problems of an environment variable named in `AUTH`: a bad name, or not set."""
    if not isinstance(variable, str) or not variable:
        return [
            invalid(
                f"{setting} must name an environment variable.",
                "Such as 'BILLING_PASSWORD'.",
            )
        ]
    if not os.environ.get(variable):
        return [
            Warning(
                f"The environment variable {variable!r} named by {setting} is not set.",
                hint="Set it where the project runs; calls to the remote fail without it.",
                id="django_services.W208",
            )
        ]
    return []

"""
The login bridge: a service account logs in with a strategy of the remote (`local`...).

    "AUTH": {
        "STRATEGY": "local",
        "CREDENTIALS": {"email": "shop@example.com"},
        "CREDENTIALS_ENV": {"password": "BILLING_PASSWORD"},
        "CACHE": "default",          # a cache every process shares: Redis, Memcached...
    }
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import jwt
from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.checks import CheckMessage, Error, Warning
from django.core.exceptions import ImproperlyConfigured

from ...errors import NotAuthenticated
from .._base import Request, build_request, merge_headers
from .._flow import Acquire, CacheGet, CacheSet, Flow, Now, Release, call_flow
from .base import TokenHeader, check_variable, invalid, missing_credentials, read_environment

if TYPE_CHECKING:
    from ..transports.base import BaseTransport

__all__ = ["Login", "token_expiry"]

# The cache key of the refresh token: the access token's, and this.
REFRESH_SUFFIX = ".refresh"


class Login(TokenHeader):
    """
    A login strategy (`local`, or any name the remote knows): a service account logs in.

    The login posts `{"strategy": STRATEGY, **CREDENTIALS}` (with the fields of
    `CREDENTIALS_ENV` read from the environment) to the remote's `PATH`. The access token goes
    in the cache `CACHE`, so every process and host using that cache shares it, until
    `EXPIRY_MARGIN` seconds before the `exp` of the token (read without checking the
    signature: the token is the remote's); a token without `exp` is kept for the cache's
    default timeout. A call answered 401 logs in again once (unless another caller already
    replaced the token that failed) and is sent again once. Within a process, one caller at a
    time checks the cache and logs in (a lock per cache key, for threads and asyncio tasks):
    callers that find no token at the same moment share one login.

    When the remote answers a `refreshToken` with the login (its `refresh` strategy is on),
    it is kept in the cache too, and replacing the access token refreshes with it first; the
    account logs in again only when the refresh is refused (the refresh token expired, was
    revoked, or another host spent it first).
    """

    keys = TokenHeader.keys | {"CREDENTIALS", "CREDENTIALS_ENV", "PATH", "CACHE", "EXPIRY_MARGIN"}

    @classmethod
    def check(cls, options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
        problems = super().check(options, setting)
        problems.extend(_check_credentials(options, setting))
        path = options["PATH"]
        if not isinstance(path, str) or not path.strip("/"):
            problems.append(
                invalid(
                    f"{setting}['PATH'] must be the path of the remote's authentication service.",
                    "Such as 'authentication' (the default).",
                )
            )
        margin = options["EXPIRY_MARGIN"]
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or margin < 0:
            problems.append(
                invalid(
                    f"{setting}['EXPIRY_MARGIN'] must be a number of seconds, >= 0.",
                    "Less than the lifetime of the remote's tokens; 60 by default.",
                )
            )
        problems.extend(_check_cache(options["CACHE"], f"{setting}['CACHE']"))
        return problems

    @property
    def path(self) -> str:
        return self.options["PATH"].strip("/")

    @property
    def cache_alias(self) -> str:
        return self.options["CACHE"]

    def login_data(self) -> dict[str, Any]:
        """The body of the login: the strategy and the credentials."""
        data = {"strategy": self.strategy, **self.options["CREDENTIALS"]}
        for field, variable in self.options["CREDENTIALS_ENV"].items():
            setting = f"['AUTH']['CREDENTIALS_ENV'][{field!r}]"
            data[field] = read_environment(variable, self.alias, setting)
        return data

    def cache_key(self, data: Mapping[str, Any]) -> str:
        """The cache key of the token: one per remote, account and credentials."""
        identity = json.dumps(
            [self.alias, self.base_url, self.path, data], sort_keys=True, default=str
        )
        digest = hashlib.sha256(identity.encode()).hexdigest()
        return f"django_services.remote_token.{digest}"

    def cache_timeout(self, token: str, now: float) -> Any:
        """How long to keep `token`: until `exp` minus the margin; `None` not to keep it."""
        expiry = token_expiry(token)
        if expiry is None:
            return DEFAULT_TIMEOUT
        seconds = int(expiry - now - self.options["EXPIRY_MARGIN"])
        return seconds if seconds >= 1 else None

    def flow(self, request: Request, connection: BaseTransport) -> Flow:
        if not isinstance(request, Request):
            raise ImproperlyConfigured(
                f"The remote {self.alias!r} logs in with the {self.strategy!r} strategy, whose "
                "token travels in an HTTP header: a socket.io remote sends its credentials in "
                "its handshake, OPTIONS['headers']."
            )
        if any(name.lower() == self.header.lower() for name in request.headers):
            # The caller chose the credentials of this call.
            return (yield from call_flow(connection, request))
        data = self.login_data()
        key = self.cache_key(data)
        token = yield CacheGet(self.cache_alias, key)
        if not _is_token(token) or self.is_due(token, (yield Now())):
            token = yield from self._fresh_token(connection, data, key, None)
        try:
            return (yield from call_flow(connection, self._with_token(request, token)))
        except NotAuthenticated:
            token = yield from self._fresh_token(connection, data, key, token)
        return (yield from call_flow(connection, self._with_token(request, token)))

    def is_due(self, token: str, now: float) -> bool:
        """Whether `token` is to be replaced at `now`: `EXPIRY_MARGIN` seconds before `exp`."""
        expiry = token_expiry(token)
        return expiry is not None and expiry - self.options["EXPIRY_MARGIN"] <= now

    def _fresh_token(
        self, connection: BaseTransport, data: Mapping[str, Any], key: str, stale: str | None
    ) -> Flow:
        """
        A token other than `stale`: the one another caller stored meanwhile, or a new login.

        The check and the login hold this process's lock of the cache key, so the callers
        of a process that find no token at the same moment log in once: the others wait,
        then find its token in the cache.
        """
        lock = f"{self.cache_alias}:{key}"
        yield Acquire(lock)
        current = yield CacheGet(self.cache_alias, key)
        if _is_token(current) and current != stale and not self.is_due(current, (yield Now())):
            token = current
        else:
            token = None
            refresh_token = yield CacheGet(self.cache_alias, key + REFRESH_SUFFIX)
            if _is_token(refresh_token):
                refresh = {"strategy": "refresh", "refreshToken": refresh_token}
                try:
                    token = yield from self._login(connection, refresh, key)
                except NotAuthenticated:
                    token = None  # refused: log in with the credentials
            if token is None:
                token = yield from self._login(connection, data, key)
        yield Release(lock)
        return token

    def _login(self, connection: BaseTransport, data: Mapping[str, Any], key: str) -> Flow:
        login = build_request(
            "create", connection.base, self.path, data=data, default_headers=connection.headers
        )
        result = yield from call_flow(connection, login)
        token = result.get("accessToken") if isinstance(result, Mapping) else None
        if not isinstance(token, str) or not token:
            raise NotAuthenticated(
                f"The login to the remote {self.alias!r} answered no accessToken.",
                {"url": login.url},
            )
        now = yield Now()
        timeout = self.cache_timeout(token, now)
        if timeout is not None:
            yield CacheSet(self.cache_alias, key, token, timeout)
        refresh_token = result.get("refreshToken")
        if _is_token(refresh_token):
            expiry = token_expiry(refresh_token)
            lifetime = DEFAULT_TIMEOUT if expiry is None else int(expiry - now)
            yield CacheSet(self.cache_alias, key + REFRESH_SUFFIX, refresh_token, lifetime)
        return token

    def _with_token(self, request: Request, token: str) -> Request:
        return dataclasses.replace(
            request, headers=merge_headers(request.headers, self.token_header(token))
        )


def _is_token(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def token_expiry(token: str) -> float | None:
    """The `exp` of a JWT, read without checking its signature; `None` without one."""
    try:
        payload = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return None
    expiry = payload.get("exp") if isinstance(payload, Mapping) else None
    if isinstance(expiry, bool) or not isinstance(expiry, (int, float)):
        return None
    return float(expiry)


def _check_credentials(options: Mapping[str, Any], setting: str) -> list[CheckMessage]:
    credentials, variables = options["CREDENTIALS"], options["CREDENTIALS_ENV"]
    problems: list[CheckMessage] = []
    for key, value in (("CREDENTIALS", credentials), ("CREDENTIALS_ENV", variables)):
        if not isinstance(value, Mapping) or not all(isinstance(name, str) for name in value):
            problems.append(
                invalid(
                    f"{setting}[{key!r}] must be a dict of login fields.",
                    'Such as {"email": "robot@example.com"} (CREDENTIALS_ENV: field -> variable).',
                )
            )
        elif "strategy" in value:
            problems.append(
                invalid(
                    f"{setting}[{key!r}] holds 'strategy'.",
                    "The strategy of the login is AUTH['STRATEGY'].",
                )
            )
    if problems:
        return problems
    if not credentials and not variables:
        return [
            missing_credentials(
                f"{setting} logs in with the {options['STRATEGY']!r} strategy, without "
                "credentials.",
                "Set CREDENTIALS (e.g. the email) and CREDENTIALS_ENV (e.g. "
                "{'password': 'BILLING_PASSWORD'}). Other strategies: "
                "forward-bearer, forward-session, token.",
            )
        ]
    for field, variable in variables.items():
        problems.extend(check_variable(variable, f"{setting}['CREDENTIALS_ENV'][{field!r}]"))
    return problems


def _check_cache(alias: Any, setting: str) -> list[CheckMessage]:
    if not isinstance(alias, str) or alias not in settings.CACHES:
        return [
            Error(
                f"{setting} is {alias!r}, which is not an alias of CACHES.",
                hint="Known caches: " + ", ".join(sorted(settings.CACHES)) + ".",
                id="django_services.E209",
            )
        ]
    backend = settings.CACHES[alias].get("BACKEND", "")
    if backend.endswith((".LocMemCache", ".DummyCache")):
        kept = "by each process alone" if backend.endswith("LocMemCache") else "nowhere"
        return [
            Warning(
                f"{setting} is the cache {alias!r} ({backend}): the remote's token is kept "
                f"{kept}, so processes log in on their own.",
                hint="Use a cache every process shares (Redis, Memcached, the database).",
                id="django_services.W210",
            )
        ]
    return []

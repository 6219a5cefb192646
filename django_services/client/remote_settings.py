"""
The settings of one remote, `DJANGO_SERVICES["REMOTES"][alias]`, read and checked.

    config = read_remote("billing", {"BASE_URL": "https://billing.example.com/api"})
    config.base_url, config.transport_class, config.timeout, config.bridge

`read_remote()` raises `ImproperlyConfigured` for the first error; `remote_problems()` lists
every problem as system check messages, with the same words and ids.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.core.checks import CheckMessage
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from ..conf import REMOTE_AUTH_DEFAULTS, REMOTE_DEFAULTS
from .breaker import BreakerConfig
from .bridges import BRIDGES, Bridge, Login
from .cache import HTTPCache
from .config import DEFAULT_TIMEOUT, Retries, TimeoutConfig
from .remote_services import SETTING, RemoteServiceOptions, SettingsReader, TransportClass
from .transports import BUILT_IN, load
from .transports.base import BaseTransport, missing_library

__all__ = ["RemoteConfig", "RemoteServiceOptions", "read_remote", "remote_problems"]

_TIMEOUT_KEYS = ("CONNECT", "READ")
DEFAULT_BREAKER = BreakerConfig()
_BREAKER_KEYS = tuple(field.name.upper() for field in dataclasses.fields(BreakerConfig))
_RETRIES_KEYS = tuple(field.name.upper() for field in dataclasses.fields(Retries))
_BRIDGE_HINT = "The dotted path of a django_services.client.bridges.Bridge subclass."

_HEADER_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")


@dataclasses.dataclass(frozen=True)
class RemoteConfig:
    """The settings of one remote, checked, with defaults applied."""

    alias: str
    base_url: str
    transport_class: TransportClass
    headers: Mapping[str, Any]
    client_options: Mapping[str, Any]
    timeout: TimeoutConfig
    retries: Retries | None
    bridge: Bridge
    services: Mapping[str, RemoteServiceOptions]
    #: `OPTIONS["cache"]`: the cache every connection of the remote reads through, if any.
    cache: HTTPCache | None = None
    breaker: BreakerConfig | None = DEFAULT_BREAKER
    propagate: bool = True

    @property
    def connection_options(self) -> dict[str, Any]:
        """The options of the remote's connections (`rest_client()` handlers)."""
        options = {"headers": self.headers, "timeout": self.timeout, "retries": self.retries}
        if self.cache is not None:
            options["cache"] = self.cache
        return options


def read_remote(alias: str, value: Any) -> RemoteConfig:
    """Read the settings of remote `alias`; raise `ImproperlyConfigured` if they are wrong."""
    reader = _Reader(alias)
    config = reader.read(value)
    for problem in reader.problems:
        if problem.is_serious():
            hint = f" {problem.hint}" if problem.hint else ""
            raise ImproperlyConfigured(f"{problem.msg}{hint} ({problem.id})")
    assert config is not None
    return config


def remote_problems(alias: Any, value: Any) -> list[CheckMessage]:
    """Every problem of the settings of remote `alias`, as system check messages."""
    reader = _Reader(alias)
    reader.read(value)
    return reader.problems


def _is_base_url(value: Any) -> bool:
    if not isinstance(value, str) or any(character.isspace() for character in value):
        return False
    try:
        url = urlsplit(value)
        url.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return False
    return (
        url.scheme in ("http", "https")
        and bool(url.hostname)
        and not url.query
        and not url.fragment
        and url.username is None
    )


class _Reader(SettingsReader):
    """Reads a remote's settings, noting each problem instead of stopping at the first."""

    def read(self, value: Any) -> RemoteConfig | None:
        if not isinstance(self.alias, str) or not self.alias:
            self.error(
                201,
                f"{SETTING} has the alias {self.alias!r}.",
                "An alias is a non-empty string, such as 'billing'.",
            )
            return None
        if not isinstance(value, Mapping):
            self.error(
                201,
                f"{self.setting} must be a dict, not {type(value).__name__}.",
                'At least {"BASE_URL": "https://..."}.',
            )
            return None
        self.unknown_keys(value, REMOTE_DEFAULTS, self.setting)
        options = {**REMOTE_DEFAULTS, **value}
        base_url = self.base_url(options["BASE_URL"])
        transport = self.transport(options["CONNECTION"])
        headers, client_options = self.options(options["OPTIONS"], transport)
        cache = self.cache(client_options.pop("cache", None), transport)
        timeout = self.timeout(options["TIMEOUT"])
        retries = self.retries(options["RETRIES"])
        bridge = self.bridge(options["AUTH"], base_url or "")
        services = self.services(options["SERVICES"], transport)
        breaker = self.breaker(options["BREAKER"])
        propagate = self.propagate(options["PROPAGATE"])
        if transport is not None and bridge is not None and bridge.strategy is not None:
            self.bridge_crosses(transport, bridge)
        if self.failed:
            return None
        assert base_url is not None and transport is not None and bridge is not None
        return RemoteConfig(
            alias=self.alias,
            base_url=base_url,
            transport_class=transport,
            headers=headers,
            client_options=client_options,
            timeout=timeout,
            retries=retries,
            bridge=bridge,
            services=services,
            cache=cache,
            breaker=breaker,
            propagate=propagate,
        )

    def base_url(self, value: Any) -> str | None:
        setting = f"{self.setting}['BASE_URL']"
        hint = "An http or https URL without query or fragment: 'https://billing.example.com/api'."
        if value is None:
            self.error(203, f"{self.setting} has no BASE_URL.", hint)
            return None
        if not _is_base_url(value):
            self.error(203, f"{setting} is not a valid URL: {value!r}.", hint)
            return None
        return value.rstrip("/")

    def transport(self, value: Any) -> TransportClass | None:
        setting = f"{self.setting}['CONNECTION']"
        choices = f"{', '.join(map(repr, BUILT_IN))}, or the dotted path of a Transport subclass."
        hint = f"Use {choices}"
        transport: Any = value
        missing = None
        if isinstance(value, str) and value in BUILT_IN:  # checked before the import fails
            missing = missing_library(*BUILT_IN[value][2:])
            transport = None if missing else load(value)
        elif isinstance(value, str) and "." in value:
            try:
                transport = import_string(value)
            except ImportError as exc:
                self.error(204, f"{setting} {value!r} can not be imported: {exc}.", hint)
                return None
        if missing is None:
            if not (isinstance(transport, type) and issubclass(transport, BaseTransport)):
                self.error(204, f"{setting} is {value!r}, which is not a transport class.", hint)
                return None
            if not transport.opens_from_settings():
                self.error(
                    204,
                    f"{setting} is {value!r}, which can not open connections from settings.",
                    f"Define the create_client() classmethod of {transport.__name__}.",
                )
                return None
            missing = transport.missing_library()
        if missing:
            name = value if transport is None else transport.name
            self.error(204, f"{setting} {name!r} {missing}.", f"Install it, or use {choices}")
            return None
        return transport

    def options(
        self, value: Any, transport: TransportClass | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        setting = f"{self.setting}['OPTIONS']"
        if not isinstance(value, Mapping):
            self.error(
                205,
                f"{setting} must be a dict, not {type(value).__name__}.",
                'For example {"headers": {"X-Api-Version": "2"}, "verify": "/etc/ssl/ca.pem"}.',
            )
            return {}, {}
        headers = value.get("headers") or {}
        if not isinstance(headers, Mapping) or not all(
            isinstance(name, str) and _HEADER_NAME.match(name) for name in headers
        ):
            self.error(
                205,
                f"{setting}['headers'] must be a dict of header names to values.",
                'For example {"X-Api-Version": "2"}; names are tokens without spaces.',
            )
            headers = {}
        client_options = {key: item for key, item in value.items() if key != "headers"}
        allowed = transport.option_names() if transport is not None else None
        if allowed is not None:
            self.unknown_keys(client_options, allowed | {"headers", "cache"}, setting)
        return dict(headers), client_options

    def cache(self, value: Any, transport: TransportClass | None) -> HTTPCache | None:
        setting = f"{self.setting}['OPTIONS']['cache']"
        hint = 'True (in memory), or {"path": "/var/cache/billing.sqlite3", "max_size": bytes}.'
        if value is None or value is False or isinstance(value, HTTPCache):
            return value or None
        if transport is not None and not transport.call_headers:
            self.error(205, f"{setting} is for REST connections, not {transport.name!r}.", hint)
            return None
        missing = missing_library("hishel", "cache")
        if missing:
            self.error(205, f"{setting} {missing}.", hint)
            return None
        if value is True:
            return HTTPCache()
        if isinstance(value, Mapping) and set(value) <= {"path", "max_size"}:
            try:
                return HTTPCache(**value)
            except (TypeError, ValueError) as exc:
                self.error(205, f"{setting} is invalid: {exc}", hint)
                return None
        self.error(205, f"{setting} is invalid: {value!r}.", hint)
        return None

    def timeout(self, value: Any) -> TimeoutConfig:
        setting = f"{self.setting}['TIMEOUT']"
        if value is None:
            return DEFAULT_TIMEOUT
        try:
            if isinstance(value, Mapping):
                self.unknown_keys(value, _TIMEOUT_KEYS, setting)
                return TimeoutConfig(
                    connect=value.get("CONNECT", DEFAULT_TIMEOUT.connect),
                    read=value.get("READ", DEFAULT_TIMEOUT.read),
                )
            return TimeoutConfig.coerce(value)
        except (TypeError, ValueError) as exc:
            self.error(
                205,
                f"{setting} is invalid: {exc}",
                'Seconds (10), or {"CONNECT": 5, "READ": 30}.',
            )
            return DEFAULT_TIMEOUT

    def retries(self, value: Any) -> Retries | None:
        setting = f"{self.setting}['RETRIES']"
        try:
            if isinstance(value, Mapping):
                self.unknown_keys(value, _RETRIES_KEYS, setting)
                known = {key.lower(): item for key, item in value.items() if key in _RETRIES_KEYS}
                return Retries(**known)
            return Retries.coerce(value)
        except (TypeError, ValueError) as exc:
            self.error(
                205,
                f"{setting} is invalid: {exc}",
                'A number of retries (3), or {"TOTAL": 3, "BACKOFF_FACTOR": 0.5, ...}.',
            )
            return None

    def breaker(self, value: Any) -> BreakerConfig | None:
        setting = f"{self.setting}['BREAKER']"
        hint = (
            '{"FAILURES": 5, "OPEN_SECONDS": 30, "RETRY_AFTER_MAX": 300, "CACHE": None}, or False.'
        )
        if value is False:
            return None
        if value is None or value is True:
            return DEFAULT_BREAKER
        if not isinstance(value, Mapping):
            self.error(205, f"{setting} must be a dict or False, not {type(value).__name__}.", hint)
            return None
        self.unknown_keys(value, _BREAKER_KEYS, setting)
        known = {key.lower(): item for key, item in value.items() if key in _BREAKER_KEYS}
        try:
            config = BreakerConfig(**known)
        except (TypeError, ValueError) as exc:
            self.error(205, f"{setting} is invalid: {exc}", hint)
            return None
        if config.cache is not None:
            from django.conf import settings

            if config.cache not in settings.CACHES:
                self.error(
                    205,
                    f"{setting}['CACHE'] is {config.cache!r}, which is not a cache of CACHES.",
                    "Name an alias of CACHES, or None to keep the breaker in each process.",
                )
                return None
        return config

    def propagate(self, value: Any) -> bool:
        if not isinstance(value, bool):
            self.error(
                205,
                f"{self.setting}['PROPAGATE'] must be True or False, not {value!r}.",
                "False sends no trace context (a Feathers JS socket.io upstream may refuse "
                "the query's $trace).",
            )
            return True
        return value

    def bridge_crosses(self, transport: TransportClass, bridge: Bridge) -> None:
        """A credential bridge puts headers on each call: the transport must carry them."""
        if not transport.call_headers:
            self.error(
                206,
                f"{self.setting}['AUTH'] sets the {bridge.strategy!r} strategy, but a "
                f"{transport.name!r} remote's calls carry no headers: a socket sends its "
                "credentials once, in its handshake.",
                "Leave AUTH unset and give the credential in OPTIONS['headers'], e.g. "
                '{"headers": {"Authorization": "Bearer <token>"}}, which go with the handshake.',
            )

    def bridge(self, value: Any, base_url: str) -> Bridge | None:
        setting = f"{self.setting}['AUTH']"
        if value is None:
            return Bridge(alias=self.alias, base_url=base_url, options={"STRATEGY": None})
        strategies = ", ".join(map(repr, BRIDGES)) + " or a login strategy such as 'local'"
        if not isinstance(value, Mapping):
            self.error(
                206,
                f"{setting} must be a dict or None, not {type(value).__name__}.",
                f'For example {{"STRATEGY": "forward-bearer"}}; strategies: {strategies}.',
            )
            return None
        strategy = value.get("STRATEGY")
        if not isinstance(strategy, str) or not strategy:
            self.error(206, f"{setting} has no STRATEGY.", f"Use {strategies}.")
            return None
        cls: Any = BRIDGES.get(strategy, Login)
        if value.get("CLASS") is not None:
            cls = self.bridge_class(value["CLASS"], f"{setting}['CLASS']")
            if cls is None:
                return None
        known = {"STRATEGY", "CLASS", *cls.keys}
        self.unknown_keys(value, known, setting)
        options = {**REMOTE_AUTH_DEFAULTS, **value}
        before = len(self.problems)
        self.problems.extend(cls.check(options, setting))
        if any(problem.is_serious() for problem in self.problems[before:]):
            return None
        bridge: Bridge = cls(alias=self.alias, base_url=base_url, options=options)
        return bridge

    def bridge_class(self, value: Any, setting: str) -> type[Bridge] | None:
        try:
            cls = import_string(value) if isinstance(value, str) else value
        except ImportError as exc:
            self.error(206, f"{setting} {value!r} can not be imported: {exc}.", _BRIDGE_HINT)
            return None
        if not (isinstance(cls, type) and issubclass(cls, Bridge)):
            self.error(206, f"{setting} must be a Bridge subclass, not {cls!r}.", _BRIDGE_HINT)
            return None
        return cls

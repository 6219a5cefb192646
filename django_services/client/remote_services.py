"""
The reading of a remote's settings that its parts share, and its `SERVICES`: each service's
class and methods, read and checked. `remote_settings` reads the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.checks import CheckMessage, Error
from django.utils.module_loading import import_string

from ..conf import SETTINGS_NAME, did_you_mean
from ..contract import STANDARD_METHODS
from .preconditions import check_if_match
from .services import AsyncRestService, BaseRestService, RestService
from .transports.base import BaseTransport

__all__ = ["SETTING", "RemoteServiceOptions", "SettingsReader", "TransportClass"]

SETTING = f"{SETTINGS_NAME}['REMOTES']"
#: What a remote's `CONNECTION` resolves to: a transport class.
TransportClass = type[BaseTransport]
_SERVICE_KEYS = ("class", "methods", "if_match")
_SERVICES_HINT = 'Service path -> options, e.g. {"invoices": {"methods": ["find", "send"]}}.'
_METHODS_HINT = (
    'The standard methods and the custom ones the remote exposes: ["find", "get", "send"].'
)


@dataclasses.dataclass(frozen=True)
class RemoteServiceOptions:
    """A service declared in a remote's `SERVICES`: its class, methods and `if_match`."""

    service_class: type[BaseRestService] | None = None
    methods: tuple[str, ...] | None = None
    #: `True` (ETag headers) or a version field: writes by id send the version last read.
    if_match: bool | str | None = None


class SettingsReader:
    """Reads a remote's settings, noting each problem instead of stopping at the first."""

    def __init__(self, alias: Any) -> None:
        self.alias = alias
        self.setting = f"{SETTING}[{alias!r}]"
        self.problems: list[CheckMessage] = []

    def error(self, id: int, message: str, hint: str) -> None:
        self.problems.append(Error(message, hint=hint, id=f"django_services.E{id:03}"))

    def unknown_keys(self, value: Mapping[Any, Any], known: Any, setting: str) -> None:
        for key in value:
            if key not in known:
                self.error(
                    202,
                    f"Unknown key {key!r} in {setting}.{did_you_mean(str(key), known)}",
                    "Known keys: " + ", ".join(sorted(known)) + ".",
                )

    @property
    def failed(self) -> bool:
        return any(problem.is_serious() for problem in self.problems)

    def services(
        self, value: Any, transport: TransportClass | None
    ) -> dict[str, RemoteServiceOptions]:
        setting = f"{self.setting}['SERVICES']"
        if not isinstance(value, Mapping):
            self.error(
                211, f"{setting} must be a dict, not {type(value).__name__}.", _SERVICES_HINT
            )
            return {}
        services = {}
        for path, options in value.items():
            where = f"{setting}[{path!r}]"
            if not isinstance(path, str) or not path.strip("/"):
                self.error(211, f"{setting} has the service path {path!r}.", _SERVICES_HINT)
                continue
            if not isinstance(options, Mapping):
                self.error(211, f"{where} must be a dict.", _SERVICES_HINT)
                continue
            self.unknown_keys(options, _SERVICE_KEYS, where)
            service_class = self.service_class(options.get("class"), transport, f"{where}['class']")
            methods = self.methods(options.get("methods"), service_class, f"{where}['methods']")
            if_match = self.if_match(options.get("if_match"), transport, f"{where}['if_match']")
            services[path.strip("/")] = RemoteServiceOptions(service_class, methods, if_match)
        return services

    def if_match(
        self, value: Any, transport: TransportClass | None, setting: str
    ) -> bool | str | None:
        call_headers = transport is None or transport.call_headers
        try:
            return check_if_match(value, call_headers=call_headers)
        except TypeError as exc:
            self.error(
                211,
                f"{setting} is invalid: {exc}",
                "True (the answers' ETags, over REST) or the records' version field, 'version'.",
            )
            return None

    def service_class(
        self, value: Any, transport: TransportClass | None, setting: str
    ) -> type[BaseRestService] | None:
        if value is None:
            return None
        base = AsyncRestService if transport is not None and transport.is_async else RestService
        try:
            cls = import_string(value) if isinstance(value, str) else value
        except ImportError as exc:
            self.error(
                211,
                f"{setting} {value!r} can not be imported: {exc}.",
                f"The dotted path of a {base.__name__} subclass.",
            )
            return None
        if not (isinstance(cls, type) and issubclass(cls, base)):
            self.error(
                211,
                f"{setting} must be a {base.__name__} subclass for this connection, not {cls!r}.",
                "Async connections (httpx-async, aiohttp) take AsyncRestService subclasses, "
                "the others RestService subclasses.",
            )
            return None
        return cls

    def methods(
        self, value: Any, service_class: type[BaseRestService] | None, setting: str
    ) -> tuple[str, ...] | None:
        if value is None:
            return None
        cls = service_class or RestService
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            self.error(
                211, f"{setting} must be a list of method names, not {value!r}.", _METHODS_HINT
            )
            return None
        for name in value:
            if not isinstance(name, str) or not name or name.startswith("_"):
                self.error(
                    211, f"{setting} holds {name!r}, which is not a method name.", _METHODS_HINT
                )
                return None
            if name not in STANDARD_METHODS and hasattr(cls, name):
                self.error(
                    211,
                    f"{setting} holds {name!r}, which is already an attribute of "
                    f"{cls.__name__}: it can not be a custom method.",
                    "Call such a method with a service class of your own that defines it.",
                )
                return None
        return tuple(dict.fromkeys(value))

"""
Small, immutable settings of a connection: how long to wait, and when to try again.

    options = {"timeout": TimeoutConfig(connect=5, read=60), "retries": Retries(total=4)}
    connection = rest_client("https://api.example.com").requests(session, options=options)

Every request has a timeout (`DEFAULT_TIMEOUT` unless the connection sets its own); there is
no way to wait forever. Retries are off unless asked for. `Retries.delay()` is the whole retry
decision, with no I/O, so sync and async services follow exactly the same rules.
"""

from __future__ import annotations

import datetime
import email.utils
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import FeathersError, Timeout, Unavailable

__all__ = [
    "DEFAULT_TIMEOUT",
    "DOWN_STATUSES",
    "IDEMPOTENT_METHODS",
    "RETRY_STATUSES",
    "Retries",
    "TimeoutConfig",
    "is_down",
]

#: The service methods that may be sent twice without changing the outcome.
IDEMPOTENT_METHODS = frozenset({"find", "get", "update", "remove"})

#: Statuses that say "try again later": throttled, or a gateway that could not reach the server.
RETRY_STATUSES = frozenset({429, 502, 503, 504})

#: Statuses that say the upstream is down, or that a gateway could not reach it.
DOWN_STATUSES = frozenset({502, 503, 504})


def is_down(error: FeathersError, status: int | None = None) -> bool:
    """
    Whether `error` says the upstream is down: from an answer of `status`, a 502, 503 or 504;
    raised with no answer (`status` None), a timeout or an unavailable connection too.
    """
    if status is not None:
        return status in DOWN_STATUSES
    return isinstance(error, (Timeout, Unavailable)) or error.code in DOWN_STATUSES


def _positive_seconds(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}.")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(
            f"{name} must be a positive, finite number of seconds, not {value!r}: "
            "a request can not wait forever."
        )
    return float(value)


@dataclass(frozen=True)
class TimeoutConfig:
    """
    How long a request may wait, in seconds.

    **Parameters:**

    * **connect** - to open a connection (or take one from the pool).
    * **read** - for the server between two pieces of the response (and to send the body).

    A plain number given as a connection's `timeout` option sets both.
    """

    connect: float = 10.0
    read: float = 30.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "connect", _positive_seconds("connect", self.connect))
        object.__setattr__(self, "read", _positive_seconds("read", self.read))

    @classmethod
    def coerce(cls, value: TimeoutConfig | float) -> TimeoutConfig:
        """Return `value` as a `TimeoutConfig`; a number sets both the connect and read timeouts."""
        if isinstance(value, cls):
            return value
        seconds = _positive_seconds("timeout", value)
        return cls(connect=seconds, read=seconds)


#: The timeout of a connection that does not set one.
DEFAULT_TIMEOUT = TimeoutConfig()


@dataclass(frozen=True)
class Retries:
    """
    When to send a request again, and how long to wait first.

    A request is retried when its method is in `methods` and the server could not be reached,
    the connection broke before a response arrived, or the response status is in `statuses`.
    Timeouts are not retried: each attempt would wait the full timeout again. The wait grows
    exponentially (`backoff_factor * 2 ** (retry - 1)`, at most `backoff_max`), minus a random
    part of up to `jitter` of it, so many clients do not come back at the same instant. A
    `Retry-After` header is honoured exactly; when it asks for longer than `retry_after_max`,
    the error is raised at once instead.

    **Parameters:**

    * **total** - how many times a request may be sent again (not counting the first time).
    * **backoff_factor**, **backoff_max** - the exponential wait, in seconds.
    * **jitter** - the random part of the wait, from 0 (none) to 1 (anything from 0 to the wait).
    * **methods** - the service methods retried; `create`, `patch` and custom methods only when
      listed here, since sending them twice may do the work twice.
    * **statuses** - the HTTP statuses retried.
    * **retry_after_max** - the longest `Retry-After`, in seconds, worth waiting for.
    """

    total: int = 3
    backoff_factor: float = 0.5
    backoff_max: float = 30.0
    jitter: float = 0.5
    methods: frozenset[str] = field(default=IDEMPOTENT_METHODS)
    statuses: frozenset[int] = field(default=RETRY_STATUSES)
    retry_after_max: float = 120.0

    def __post_init__(self) -> None:
        if isinstance(self.total, bool) or not isinstance(self.total, int) or self.total < 0:
            raise ValueError(f"total must be a non-negative integer, not {self.total!r}.")
        for name in ("backoff_factor", "backoff_max", "retry_after_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a non-negative number, not {value!r}.")
        if isinstance(self.jitter, bool) or not 0 <= self.jitter <= 1:
            raise ValueError(f"jitter must be between 0 and 1, not {self.jitter!r}.")
        object.__setattr__(self, "methods", _frozen("methods", self.methods, str))
        object.__setattr__(self, "statuses", _frozen("statuses", self.statuses, int))

    @classmethod
    def coerce(cls, value: Retries | int | None) -> Retries | None:
        """Return `value` as `Retries`: a number is `total`; `None` or 0 means no retries."""
        if value is None or isinstance(value, cls):
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(
                f"retries must be a Retries, a number of retries or None, "
                f"not {type(value).__name__}."
            )
        return cls(total=value) if value else None

    def delay(
        self,
        method: str,
        retry: int,
        *,
        status: int | None = None,
        retry_after: str | None = None,
        now: float = 0.0,
        random: float = 0.0,
    ) -> float | None:
        """
        Return how many seconds to wait before retry number `retry` (from 1), or `None` to stop.

        `status` is the response status, or `None` when no response arrived. `retry_after` is
        the raw `Retry-After` header, `now` the current time (for a date in it) and `random` a
        number in [0, 1) that sets the jitter.
        """
        if retry > self.total or method not in self.methods:
            return None
        if status is not None:
            if status not in self.statuses:
                return None
            wait = parse_retry_after(retry_after, now=now)
            if wait is not None:
                return wait if wait <= self.retry_after_max else None
        backoff = min(self.backoff_max, self.backoff_factor * 2 ** (retry - 1))
        return backoff * (1 - self.jitter * random)


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a `Retry-After` header (seconds or an HTTP date); `None` if unusable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, moment.timestamp() - now)


def _frozen(name: str, values: Iterable[Any], kind: type) -> frozenset[Any]:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a collection of {kind.__name__}, not a single string.")
    items = frozenset(values)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, kind):
            raise TypeError(f"{name} must hold {kind.__name__} values, not {item!r}.")
    return items

"""
Settings for django-feathers, all under one `DJANGO_SERVICES` dict.

    DJANGO_SERVICES = {
        "SERVICES": {"todos": "todos.services.TodoService"},
        "PAGINATE": {"default": 10, "max": 50},
        "AUTHENTICATION": {"ENTITY": "user", "ENTITY_SERVICE": "users"},
    }

Use `services_settings.PAGINATE` and so on. Values are read lazily, so nothing is read at import
time, and the object reloads itself when `DJANGO_SERVICES` changes (`override_settings`).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

__all__ = [
    "DEFAULTS",
    "REMOTE_AUTH_DEFAULTS",
    "REMOTE_DEFAULTS",
    "ServicesSettings",
    "did_you_mean",
    "import_from_string",
    "services_settings",
]

SETTINGS_NAME = "DJANGO_SERVICES"

DEFAULTS: dict[str, Any] = {
    # Service path -> dotted path of a Service or ModelService class, or a dict with that
    # path under "class" and options beside it ({"class": "...", "multi": True}).
    "SERVICES": {},
    # Default pagination for model services: None, or {"default": D, "max": M}, optionally
    # with "estimate_total_above": N (PostgreSQL: the planner's estimate as `total` above N).
    "PAGINATE": None,
    # Default for multi create/patch/remove: False, True, or a list of method names.
    "MULTI": False,
    # Extra query operators enabled for every service (e.g. ["$like", "$ilike"]).
    "OPERATORS": [],
    # App-wide hooks, run around every service's own: {"before": {"all": [...], "create": [...]},
    # "after": [...], "around": ..., "error": ...}; hooks are callables or dotted paths.
    "HOOKS": {},
    # Query-string limits; a request beyond one of them is a 400 BadRequest naming it.
    "QUERY_DEPTH_LIMIT": 5,
    "QUERY_PARAMETER_LIMIT": 1000,
    "QUERY_LIST_LIMIT": 1000,
    # Query size limits, checked before the database sees the query (400 naming the limit):
    # entries of one $or and of one $and, values of one $in/$nin, characters of a $like pattern.
    "QUERY_OR_LIMIT": 100,
    "QUERY_AND_LIMIT": 100,
    "QUERY_IN_LIMIT": 1000,
    "QUERY_LIKE_LENGTH_LIMIT": 1000,
    # JSON bodies nested deeper than this are a 400 BadRequest.
    "BODY_DEPTH_LIMIT": 32,
    # DRF authentication classes (dotted paths) of services that set no
    # `authentication_classes`; REST_FRAMEWORK's defaults are not used by services.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "django_services.server.authentication.JWTAuthentication",
        "django_services.server.authentication.SessionAuthentication",
    ],
    # DRF permission classes (dotted paths) of services that set no `permission_classes`:
    # services are public unless protected, as in Feathers.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # The DRF exception handler of services (dotted path): every error as Feathers JSON.
    "EXCEPTION_HANDLER": "django_services.server.rest.exceptions.exception_handler",
    # The threads an ASGI server (`django_services.asgi.get_asgi_application()`) runs the sync
    # code of HTTP requests in, each lent to one request at a time, so that database
    # connections persist between requests as CONN_MAX_AGE allows. None: four a core and four
    # more, at most 32; 0: Django's own handler, a new thread (and connection) per request.
    "ASGI_REQUEST_THREADS": None,
    # The publisher of service events to socket.io connections (a dotted path to a
    # `django_services.server.socketio.Publisher` subclass); None publishes nothing.
    "SOCKETIO_PUBLISHER": None,
    # Redis (a URL) through which every process publishes service events to the sockets of
    # every socket.io server process; None: events reach the sockets of their own process.
    "SOCKETIO_REDIS_URL": None,
    # The Redis pub/sub channel of those events: projects (or staging and production) sharing
    # one Redis server each need their own.
    "SOCKETIO_REDIS_CHANNEL": "django-feathers",
    # The bytes waiting to be sent to one socket.io connection (queued, or in its transport)
    # beyond which it is closed as lost: a client that stopped reading, or polling, reconnects
    # and recovers what it missed. A positive integer; 4 MiB.
    "SOCKETIO_OUTGOING_LIMIT": 4 * 1024 * 1024,
    # The log of the events sent to sockets (`django_services.models.LoggedEvent`): what it
    # keeps, by age (seconds) and by count (`manage.py prune_events` and the server delete the
    # rest); how often each socket.io process reads it for events no live send delivered, and
    # how long a missing id holds back the events above it (seconds). With ENABLED, a
    # connection lost less than WINDOW seconds ago is recovered by any process: socket.io's
    # connection state recovery, its missed events, channels and login (docs/realtime.md).
    "SOCKETIO_RECOVERY": {
        "ENABLED": True,
        "WINDOW": 120,
        "MAX_EVENTS": 100_000,
        "POLL_INTERVAL": 1.0,
        "GAP_GRACE": 0.5,
    },
    # The /authentication service and the JWTs it issues (Feathers' `authentication` config).
    # Present in DJANGO_SERVICES (as a dict), it turns the service on; every key is optional.
    "AUTHENTICATION": {
        # The key that signs and verifies tokens (Feathers' `secret`). None derives one from
        # Django's SECRET_KEY (system check django_services.W101): set it explicitly to share
        # tokens with other servers, and keep it at least as long as the algorithm's digest.
        "SECRET": None,
        # Older secrets still accepted when verifying (never used to sign), for key rotation.
        # With SECRET None, Django's SECRET_KEY_FALLBACKS are used the same way.
        "SECRET_FALLBACKS": [],
        # Where the service is mounted, under the services' mount (`POST {base}/authentication`).
        "SERVICE_PATH": "authentication",
        # Dotted path of the service class, for projects that subclass AuthenticationService.
        "SERVICE_CLASS": "django_services.server.authentication.service.AuthenticationService",
        # The key of the user in the result (Feathers' `entity`; None: no user sent), and the
        # path of the service whose `get` shows it there (Feathers' `service`); without that
        # service, the user's id and login fields are sent.
        "ENTITY": "user",
        "ENTITY_SERVICE": "users",
        # The user model field that tokens carry as `sub` (Feathers' `entityId`); None: the pk.
        "ENTITY_ID": None,
        # Strategy name -> dotted path of its class (a BaseStrategy subclass). Names given here
        # are added to these four, so a project only lists its own (e.g. an API key strategy).
        "STRATEGIES": {
            "local": "django_services.server.authentication.strategies.LocalStrategy",
            "jwt": "django_services.server.authentication.strategies.JWTStrategy",
            "session": "django_services.server.authentication.strategies.SessionStrategy",
            "refresh": "django_services.server.authentication.refresh.RefreshStrategy",
        },
        # Strategies that may be used to create a token (Feathers' `authStrategies`). Add
        # "session" to let a page rendered for a logged-in Django session fetch a token.
        # Add "refresh" to answer a refresh token beside each new access token (see REFRESH).
        "AUTH_STRATEGIES": ["local", "jwt"],
        # Refresh tokens (on when "refresh" is in AUTH_STRATEGIES): single use, rotated at each
        # use, stored by their hash (the django_services.RefreshToken model).
        "REFRESH": {
            # Lifetime in seconds (an int or a datetime.timedelta); 14 days.
            "EXPIRES_IN": 14 * 86400,
            # True: REST logins set the refresh token as an HttpOnly, SameSite=Strict cookie
            # scoped to the authentication path instead of answering it in the body (for
            # browsers); a refresh from the cookie must pass Django's CSRF check.
            "COOKIE": False,
            # The name of that cookie.
            "COOKIE_NAME": "feathers-refresh",
        },
        # Token options (Feathers' `jwtOptions` and `jwt`).
        "JWT": {
            # The one algorithm accepted, HS256, HS384 or HS512 (never "none", no switching).
            "ALGORITHM": "HS256",
            # Lifetime in seconds (an int or a datetime.timedelta): `exp` = `iat` + this.
            "EXPIRES_IN": 86400,
            # The `aud` claim written and required; None: tokens must carry no `aud`.
            "AUDIENCE": "https://yourdomain.com",
            # The `iss` claim written and required; None: no `iss` (as Feathers' generated apps).
            "ISSUER": "feathers",
            # Seconds of clock skew tolerated on `exp` and `iat` between servers.
            "LEEWAY": 0,
            # The request header read, and the schemes accepted in it (case-insensitive); a
            # value without a space is taken as a bare token, another scheme is ignored.
            "HEADER": "Authorization",
            "SCHEMES": ["Bearer", "JWT"],
        },
        # The local strategy (Feathers' `local`): the body fields holding the credentials,
        # checked with Django's authentication backends, and the one message of every failure.
        # USERNAME_FIELD None: the user model's USERNAME_FIELD (`username` for Django's User,
        # `email` for a user model that logs in by email, as Feathers' generated apps do).
        "LOCAL": {
            "USERNAME_FIELD": None,
            "PASSWORD_FIELD": "password",
            "ERROR_MESSAGE": "Invalid login",
        },
        # Refuse tokens after logout, through a denylist of their `jti` in this cache alias
        # (None: off, tokens stay valid until they expire, as in Feathers). Use a cache every
        # process shares (Redis, Memcached, the database) for the refusal to hold everywhere.
        "REVOCATION_CACHE": None,
        # Tokens carry a fingerprint of their user's password hash (as Django sessions do), so
        # a password change ends every token issued before it. False: tokens live until `exp`
        # whatever the password (needed to accept tokens another server issued, e.g. Feathers).
        "REVOKE_ON_PASSWORD_CHANGE": True,
        # DRF throttle classes applied to the authentication service, and the rate of the
        # default one, per client address ("10/min"; None: not throttled). Over the rate the
        # answer is 429 TooManyRequests with Retry-After.
        "THROTTLE_CLASSES": [
            "django_services.server.authentication.throttling.AuthenticationRateThrottle"
        ],
        "THROTTLE_RATE": None,
    },
    # Remote services called through the client: alias -> options (see REMOTE_DEFAULTS),
    # used as `remotes["billing"].service("invoices")` (django_services.client.remotes).
    "REMOTES": {},
}

#: The options of each alias of `REMOTES`, and their defaults.
REMOTE_DEFAULTS: dict[str, Any] = {
    # Where the remote's services are mounted: "https://billing.example.com/api" (required).
    "BASE_URL": None,
    # The HTTP library: "requests", "httpx", "httpx-async" or "aiohttp" (the last two give
    # coroutine methods), or the dotted path of a `Transport` subclass.
    "CONNECTION": "requests",
    # "headers": sent with every call. Any other key is a keyword argument of the library's
    # client (`verify`, `cert`, `proxy`, `limits`...; attributes of a requests.Session).
    "OPTIONS": {},
    # Seconds, or {"CONNECT": s, "READ": s}; None: 10 s to connect, 30 s between reads.
    "TIMEOUT": None,
    # How many times an idempotent call is sent again after a failure (429, 502-504, a lost
    # connection), or a dict of `Retries` fields in capitals ({"TOTAL": 3, ...}); None: never.
    "RETRIES": None,
    # The credentials sent (see REMOTE_AUTH_DEFAULTS); None: none.
    "AUTH": None,
    # The circuit breaker: {"FAILURES": 5, "OPEN_SECONDS": 30, "RETRY_AFTER_MAX": 300,
    # "CACHE": None} (a cache alias shares its opening between processes); False: none.
    "BREAKER": {},
    # Whether calls carry the incoming request's trace context and X-Request-ID.
    "PROPAGATE": True,
    # Service path -> {"methods": [...custom methods...], "class": dotted path of a
    # RestService (AsyncRestService for async connections) subclass}.
    "SERVICES": {},
}

#: The options of a remote's `AUTH`, and their defaults. Each strategy reads the keys it names.
REMOTE_AUTH_DEFAULTS: dict[str, Any] = {
    # "forward-bearer": the incoming request's bearer token; "forward-session": its Django
    # session cookie (and CSRF token), for sibling projects sharing the session store;
    # "token": a static token; any other name (e.g. "local"): a login strategy of the remote.
    "STRATEGY": None,
    # Dotted path of the bridge class, for a strategy of the project's own.
    "CLASS": None,
    # The header carrying a token, and its scheme (forward-bearer, token and login strategies).
    "HEADER": "Authorization",
    "SCHEME": "Bearer",
    # The "token" strategy: the token, or the environment variable holding it.
    "TOKEN": None,
    "TOKEN_ENV": None,
    # Login strategies: the body fields of the login, and fields read from environment
    # variables ({"password": "BILLING_PASSWORD"}); the strategy name is added.
    "CREDENTIALS": {},
    "CREDENTIALS_ENV": {},
    # The remote's authentication service, the cache alias that shares the token between
    # processes, and how many seconds before its `exp` a token is replaced.
    "PATH": "authentication",
    "CACHE": "default",
    "EXPIRY_MARGIN": 60,
    # forward-session: the names the remote uses; None: this project's SESSION_COOKIE_NAME,
    # CSRF_COOKIE_NAME and the header of CSRF_HEADER_NAME.
    "SESSION_COOKIE": None,
    "CSRF_COOKIE": None,
    "CSRF_HEADER": None,
}

#: Settings whose values are dotted paths, imported on first access.
IMPORT_STRINGS: tuple[str, ...] = ()


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """` Did you mean 'X'?` for the known name closest to a misspelt `name`, or ``."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" Did you mean {close[0]!r}?" if close else ""


def import_from_string(value: Any, setting_name: str) -> Any:
    """
    Import a dotted path found in the settings, naming the setting when it fails.

    Non-string values (classes, callables) are returned as they are.
    """
    if not isinstance(value, str):
        return value
    try:
        return import_string(value)
    except ImportError as exc:
        raise ImproperlyConfigured(
            f"Could not import {value!r} for {SETTINGS_NAME}{setting_name}: "
            f"{type(exc).__name__}: {exc}."
        ) from exc


def _merge(defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Merge `overrides` into a copy of `defaults`, recursing into nested dicts of defaults."""
    merged = copy.deepcopy(dict(defaults))
    for key, value in overrides.items():
        default = defaults.get(key)
        if isinstance(default, Mapping) and default and isinstance(value, Mapping):
            merged[key] = _merge(default, value)
        else:
            merged[key] = value
    return merged


class ServicesSettings:
    """
    Lazy access to `DJANGO_SERVICES` with defaults.

    Nested settings dicts (such as `AUTHENTICATION`) are merged key by key with their
    defaults, so a project only writes the keys it changes.
    """

    def __init__(
        self,
        user_settings: Mapping[str, Any] | None = None,
        defaults: Mapping[str, Any] | None = None,
        import_strings: tuple[str, ...] = IMPORT_STRINGS,
    ) -> None:
        self._explicit_user_settings = user_settings
        self.defaults = DEFAULTS if defaults is None else defaults
        self.import_strings = import_strings
        self._cached: set[str] = set()

    @property
    def user_settings(self) -> Mapping[str, Any]:
        """The project's `DJANGO_SERVICES` dict (empty when not set)."""
        if self._explicit_user_settings is not None:
            return self._explicit_user_settings
        value = getattr(settings, SETTINGS_NAME, {})
        if not isinstance(value, Mapping):
            raise ImproperlyConfigured(
                f"{SETTINGS_NAME} must be a dict, not {type(value).__name__}."
            )
        return value

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_") or attr not in self.defaults:
            raise AttributeError(f"Invalid {SETTINGS_NAME} setting: {attr!r}")
        default = self.defaults[attr]
        if attr in self.user_settings:
            value = self.user_settings[attr]
            if isinstance(default, Mapping) and default and isinstance(value, Mapping):
                value = _merge(default, value)
        else:
            value = copy.deepcopy(default)
        if attr in self.import_strings:
            value = import_from_string(value, f"[{attr!r}]")
        setattr(self, attr, value)
        self._cached.add(attr)
        return value

    def reload(self) -> None:
        """Forget cached values, so the next access reads the settings again."""
        for attr in self._cached:
            self.__dict__.pop(attr, None)
        self._cached.clear()


services_settings = ServicesSettings()


def _reload_services_settings(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        services_settings.reload()


setting_changed.connect(_reload_services_settings)

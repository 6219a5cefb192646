"""Every system check of `DJANGO_SERVICES["REMOTES"]`: its id, the setting it names, a hint."""

from __future__ import annotations

import pytest
from django.core.checks import run_checks

from django_services.client.bridges import Bridge
from django_services.client.checks import check_remotes
from django_services.client.transports.requests import RequestsTransport

BASE = {"BASE_URL": "https://billing.example.com"}
LOGIN = {
    "STRATEGY": "local",
    "CREDENTIALS": {"email": "robot@example.com", "password": "pw"},
    "CACHE": "shared",
}
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_services.middleware.RemotesMiddleware",
]
REDIS = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://x"}


class UninstalledKind(RequestsTransport):
    """A kind whose library is not installed."""

    name = "uninstalled"
    library = "a_library_that_is_not_installed"
    extra = "uninstalled"


class ApiKeyBridge(Bridge):
    """A bridge of the project's own, reading one key."""

    keys = frozenset({"KEY"})


@pytest.fixture
def check(settings):
    """Run the check with these remotes; return [(id, message, hint)], each with a hint."""
    settings.MIDDLEWARE = MIDDLEWARE
    settings.CACHES = {**settings.CACHES, "shared": REDIS}

    def run(remotes, **project_settings):
        for name, value in project_settings.items():
            setattr(settings, name, value)
        settings.DJANGO_SERVICES = {"REMOTES": remotes}
        messages = check_remotes()
        for message in messages:
            assert message.hint, f"{message.id} has no hint"
        return [(message.id, message.msg, message.hint) for message in messages]

    return run


def ids(messages):
    return [message[0] for message in messages]


def test_a_correct_configuration_passes(check, monkeypatch):
    monkeypatch.setenv("BILLING_PASSWORD", "pw")
    monkeypatch.setenv("BILLING_TOKEN", "t")
    remotes = {
        "plain": BASE,
        "full": {
            **BASE,
            "CONNECTION": "httpx",
            "OPTIONS": {"headers": {"X-Api-Version": "2"}, "http2": False},
            "TIMEOUT": {"CONNECT": 1, "READ": 5},
            "RETRIES": {"TOTAL": 2, "METHODS": ["find", "create"]},
            "SERVICES": {"invoices": {"methods": ["find", "send"]}},
            "AUTH": {
                **LOGIN,
                "CREDENTIALS": {"email": "robot@example.com"},
                "CREDENTIALS_ENV": {"password": "BILLING_PASSWORD"},
            },
        },
        "bearer": {**BASE, "CONNECTION": "aiohttp", "AUTH": {"STRATEGY": "forward-bearer"}},
        "session": {**BASE, "AUTH": {"STRATEGY": "forward-session"}},
        "token": {**BASE, "AUTH": {"STRATEGY": "token", "TOKEN_ENV": "BILLING_TOKEN"}},
        "own": {**BASE, "AUTH": {"STRATEGY": "api-key", "CLASS": ApiKeyBridge, "KEY": "k"}},
        "test": {**BASE, "CONNECTION": "django_services.testing.IN_PROCESS"},
    }

    assert check(remotes) == []


@pytest.mark.parametrize("remotes", [["billing"], {"billing": "https://x"}, {"": BASE}, {1: BASE}])
def test_e201_remotes_are_dicts_by_string_alias(check, remotes):
    assert ids(check(remotes)) == ["django_services.E201"]


@pytest.mark.parametrize(
    ("remote", "where"),
    [
        ({**BASE, "URL": "x"}, "['billing']"),
        ({**BASE, "AUTH": {**LOGIN, "TOKEN": "t"}}, "['billing']['AUTH']"),
        ({**BASE, "AUTH": {"STRATEGY": "forward-bearer", "CACHE": "x"}}, "['billing']['AUTH']"),
        ({**BASE, "OPTIONS": {"verify": True, "http2": True}}, "['billing']['OPTIONS']"),
        ({**BASE, "CONNECTION": "httpx", "OPTIONS": {"cookies": {}}}, "['billing']['OPTIONS']"),
        ({**BASE, "CONNECTION": "aiohttp", "OPTIONS": {"verify": 1}}, "['billing']['OPTIONS']"),
        ({**BASE, "TIMEOUT": {"TOTAL": 3}}, "['billing']['TIMEOUT']"),
        ({**BASE, "RETRIES": {"TIMES": 3}}, "['billing']['RETRIES']"),
        ({**BASE, "SERVICES": {"a": {"method": ["x"]}}}, "['billing']['SERVICES']['a']"),
    ],
)
def test_e202_unknown_keys(check, remote, where):
    messages = check({"billing": remote})

    assert ids(messages) == ["django_services.E202"]
    assert f"DJANGO_SERVICES['REMOTES']{where}" in messages[0][1]
    assert messages[0][2].startswith("Known keys: ")


@pytest.mark.parametrize(
    "url",
    [
        None,
        "billing.example.com",
        "ftp://billing.example.com",
        "https://",
        "https://billing.example.com/?page=1",
        "https://billing.example.com/#top",
        "https://user:secret@billing.example.com",
        "https://billing.example.com:port",
        "https://billing example.com",
        42,
    ],
)
def test_e203_base_url(check, url):
    remote = {"BASE_URL": url} if url is not None else {}
    messages = check({"billing": remote})

    assert ids(messages) == ["django_services.E203"]
    assert "https://billing.example.com/api" in messages[0][2]


@pytest.mark.parametrize(
    ("connection", "words"),
    [
        ("curl", "is 'curl', which is not a transport class"),
        ("no_such_module.KIND", "can not be imported"),
        ("django_services.client.remotes.remotes", "which is not a transport class"),
        (f"{__name__}.UninstalledKind", "needs the a_library_that_is_not_installed package"),
    ],
)
def test_e204_connection(check, connection, words):
    messages = check({"billing": {**BASE, "CONNECTION": connection}})

    assert ids(messages) == ["django_services.E204"]
    assert words in messages[0][1]


@pytest.mark.parametrize(
    "change",
    [
        {"OPTIONS": ["verify"]},
        {"OPTIONS": {"headers": {"Bad Header": "x"}}},
        {"OPTIONS": {"headers": "X-Api: 1"}},
        {"TIMEOUT": 0},
        {"TIMEOUT": "10"},
        {"TIMEOUT": {"READ": -1}},
        {"RETRIES": -1},
        {"RETRIES": "3"},
        {"RETRIES": {"JITTER": 2}},
        {"OPTIONS": {"cache": "memory"}},
        {"OPTIONS": {"cache": {"path": 3}}},
        {"OPTIONS": {"cache": {"max_size": -1}}},
        {"OPTIONS": {"cache": {"PATH": "/tmp/x"}}},
        {"CONNECTION": "socketio", "OPTIONS": {"cache": True}},
    ],
)
def test_e205_invalid_values(check, change):
    assert ids(check({"billing": {**BASE, **change}})) == ["django_services.E205"]


@pytest.mark.parametrize(
    "auth",
    [
        "local",
        {},
        {"STRATEGY": ""},
        {**LOGIN, "CLASS": "no_such_module.Bridge"},
        {**LOGIN, "CLASS": "django_services.client.remotes.Remote"},
        {**LOGIN, "HEADER": ""},
        {**LOGIN, "SCHEME": "Bearer token"},
        {**LOGIN, "EXPIRY_MARGIN": -1},
        {**LOGIN, "PATH": "/"},
        {**LOGIN, "CREDENTIALS": {"strategy": "jwt", "email": "x"}},
        {**LOGIN, "CREDENTIALS": ["email"]},
        {"STRATEGY": "token", "TOKEN": "t", "TOKEN_ENV": "T"},
        {"STRATEGY": "token", "TOKEN": ""},
        {"STRATEGY": "token", "TOKEN_ENV": ""},
        {"STRATEGY": "forward-session", "SESSION_COOKIE": ""},
    ],
)
def test_e206_invalid_auth(check, auth):
    assert ids(check({"billing": {**BASE, "AUTH": auth}})) == ["django_services.E206"]


def test_e206_names_the_strategies(check):
    messages = check({"billing": {**BASE, "AUTH": {"CREDENTIALS": {}}}})

    assert "'forward-bearer', 'forward-session', 'token'" in messages[0][2]


@pytest.mark.parametrize("connection", ["socketio", "socketio-async"])
@pytest.mark.parametrize(
    "auth",
    [
        {"STRATEGY": "forward-bearer"},
        {"STRATEGY": "token", "TOKEN": "t"},
        {"STRATEGY": "local", "CACHE": "shared", "CREDENTIALS": {"email": "a", "password": "b"}},
    ],
)
def test_e206_a_socket_remote_takes_no_credential_bridge(check, connection, auth):
    messages = check({"chat": {**BASE, "CONNECTION": connection, "AUTH": auth}})

    assert [message[0] for message in messages] == ["django_services.E206"]
    assert "carry no headers" in messages[0][1]
    assert "OPTIONS['headers']" in messages[0][2]


@pytest.mark.parametrize(
    "auth",
    [
        {"STRATEGY": "local", "CACHE": "shared"},
        {"STRATEGY": "forward-berer", "CACHE": "shared"},
        {"STRATEGY": "token"},
    ],
)
def test_e207_missing_credentials(check, auth):
    messages = check({"billing": {**BASE, "AUTH": auth}})

    assert ids(messages) == ["django_services.E207"]
    assert messages[0][2]


@pytest.mark.parametrize(
    "auth",
    [
        {**LOGIN, "CREDENTIALS_ENV": {"password": "DJANGO_SERVICES_UNSET_VARIABLE"}},
        {"STRATEGY": "token", "TOKEN_ENV": "DJANGO_SERVICES_UNSET_VARIABLE"},
    ],
)
def test_w208_unset_environment_variable(check, auth, monkeypatch):
    monkeypatch.delenv("DJANGO_SERVICES_UNSET_VARIABLE", raising=False)

    messages = check({"billing": {**BASE, "AUTH": auth}})

    assert ids(messages) == ["django_services.W208"]
    assert "'DJANGO_SERVICES_UNSET_VARIABLE'" in messages[0][1]


def test_e209_unknown_cache(check):
    messages = check({"billing": {**BASE, "AUTH": {**LOGIN, "CACHE": "tokens"}}})

    assert ids(messages) == ["django_services.E209"]
    assert messages[0][2] == "Known caches: default, shared."


@pytest.mark.parametrize(
    ("backend", "words"),
    [
        ("django.core.cache.backends.locmem.LocMemCache", "by each process alone"),
        ("django.core.cache.backends.dummy.DummyCache", "kept nowhere"),
    ],
)
def test_w210_a_cache_processes_do_not_share(check, settings, backend, words):
    settings.CACHES = {"default": {"BACKEND": backend}}
    auth = {key: value for key, value in LOGIN.items() if key != "CACHE"}

    messages = check({"billing": {**BASE, "AUTH": auth}})

    assert ids(messages) == ["django_services.W210"]
    assert words in messages[0][1]


@pytest.mark.parametrize(
    ("services", "connection"),
    [
        (["invoices"], "requests"),
        ({"invoices": ["find"]}, "requests"),
        ({"": {"methods": ["find"]}}, "requests"),
        ({"invoices": {"methods": "find"}}, "requests"),
        ({"invoices": {"methods": ["_secret"]}}, "requests"),
        ({"invoices": {"methods": ["bind"]}}, "requests"),
        ({"invoices": {"class": "no_such_module.InvoiceService"}}, "requests"),
        ({"invoices": {"class": "django_services.client.RestService"}}, "httpx-async"),
        ({"invoices": {"class": "django_services.client.AsyncRestService"}}, "requests"),
        ({"invoices": {"if_match": ""}}, "requests"),
        ({"invoices": {"if_match": 1}}, "requests"),
        ({"invoices": {"if_match": True}}, "socketio"),
    ],
)
def test_e211_services(check, services, connection):
    remote = {**BASE, "CONNECTION": connection, "SERVICES": services}

    assert ids(check({"billing": remote})) == ["django_services.E211"]


@pytest.mark.parametrize("strategy", ["forward-bearer", "forward-session"])
def test_w212_forwarding_without_the_middleware(check, strategy):
    remote = {**BASE, "AUTH": {"STRATEGY": strategy}}

    messages = check({"billing": remote, "shop": BASE}, MIDDLEWARE=MIDDLEWARE[:2])

    assert ids(messages) == ["django_services.W212"]
    assert "'billing'" in messages[0][1]
    assert "'shop'" not in messages[0][1]
    assert "for_request(request)" in messages[0][2]


def test_e213_session_csrf_without_sessions(check):
    remote = {**BASE, "AUTH": {"STRATEGY": "forward-session"}}
    without_sessions = MIDDLEWARE[1:]

    with_cookie = check({"billing": remote}, MIDDLEWARE=without_sessions)
    with_session = check({"billing": remote}, MIDDLEWARE=without_sessions, CSRF_USE_SESSIONS=True)

    assert ids(with_cookie) == []
    assert ids(with_session) == ["django_services.E213"]


def test_the_check_is_registered(settings):
    settings.DJANGO_SERVICES = {"REMOTES": {"billing": {"BASE_URL": "nowhere"}}}

    assert "django_services.E203" in [message.id for message in run_checks()]

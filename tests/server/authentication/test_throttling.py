"""
Throttling of the authentication service, over real HTTP: `THROTTLE_RATE` (and
`THROTTLE_CLASSES`) count the logins that check a secret (`local`, a project's own strategies),
never logouts or `jwt` and `session` re-authentication, which keep working at the limit.
"""

from __future__ import annotations

import pytest
import requests
from django.conf import settings as django_settings
from django.core import signing
from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from django_services.server.authentication import (
    AuthenticationResult,
    BaseStrategy,
    NotAuthenticated,
)

from .conftest import EMAIL, PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

HERE = "tests.server.authentication.test_throttling"
SIGNING_SALT = "login-link"


class PinStrategy(BaseStrategy):
    """A strategy a project adds that checks a short secret: counted, as `local`."""

    def authenticate(self, data, request):
        from tests.testapp.models import User

        user = User.objects.filter(email=data.get("email")).first()
        if user is None or data.get("pin") != "2468":
            raise NotAuthenticated("Invalid PIN")
        return AuthenticationResult(user, {"strategy": self.name})


class ExplicitPinStrategy(PinStrategy):
    """The same, saying it."""

    throttled = True


class LoginLinkStrategy(BaseStrategy):
    """A signed login link, no more guessable than a token: it opts out of the throttle."""

    throttled = False

    def authenticate(self, data, request):
        from tests.testapp.models import User

        try:
            email = signing.loads(str(data.get("link")), salt=SIGNING_SALT)
        except signing.BadSignature:
            raise NotAuthenticated("Invalid login link") from None
        return AuthenticationResult(User.objects.get(email=email), {"strategy": self.name})


class TwoLoginsPerMinute(SimpleRateThrottle):
    """A throttle class of the project's own, in `THROTTLE_CLASSES`."""

    scope = "two-logins"
    rate = "2/min"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def call(live_server):
    """`call(method, path, json=...)`: one request to the live server."""
    with requests.Session() as session:
        session.headers["Accept"] = "application/json"
        yield lambda method, path, **kwargs: session.request(
            method, live_server.url + path, timeout=10, **kwargs
        )


def login(call, **data):
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD, **data}
    return call("POST", "/authentication", json=body)


def reauthenticate(call, token):
    return call("POST", "/authentication", json={"strategy": "jwt", "accessToken": token})


def logout(call, token):
    return call("DELETE", f"/authentication/{token}", headers={"Authorization": f"Bearer {token}"})


def assert_throttled(response):
    """A 429 in Feathers' shape, telling when to retry (within the minute of the rate)."""
    assert response.status_code == 429, response.text
    wait = int(response.headers["Retry-After"])
    assert 0 < wait <= 60
    unit = "second" if wait == 1 else "seconds"
    assert response.json() == {
        "name": "TooManyRequests",
        "message": f"Request was throttled. Expected available in {wait} {unit}.",
        "code": 429,
        "className": "too-many-requests",
    }


def test_logins_beyond_the_rate_are_429_with_retry_after(configure, call, user):
    configure(THROTTLE_RATE="3/min")
    statuses = [
        login(call, password="wrong").status_code,
        login(call).status_code,
        login(call, email="nobody@example.com").status_code,
    ]
    assert statuses == [401, 201, 401]
    assert_throttled(login(call))
    assert_throttled(login(call, password="wrong"))


def test_not_throttled_by_default(call, user):
    assert {login(call, password="wrong").status_code for _ in range(30)} == {401}


def test_logouts_and_reauthentication_are_not_counted(configure, call, user):
    configure(THROTTLE_RATE="3/min")
    token = login(call).json()["accessToken"]
    for _ in range(10):
        assert reauthenticate(call, token).status_code == 201
    for _ in range(5):
        assert logout(call, token).status_code == 200
    # The first login and these two are the three the rate allows.
    assert [login(call).status_code for _ in range(2)] == [201, 201]
    assert_throttled(login(call))


def test_reauthentication_and_logout_work_once_logins_are_throttled(configure, call, user):
    configure(THROTTLE_RATE="2/min", REVOCATION_CACHE="default")
    tokens = [login(call).json()["accessToken"] for _ in range(2)]
    assert_throttled(login(call))

    again = reauthenticate(call, tokens[0])
    assert again.status_code == 201, again.text
    assert again.json()["accessToken"] == tokens[0]
    for token in tokens:
        out = logout(call, token)
        assert out.status_code == 200, out.text
        assert out.json()["accessToken"] == token
    assert reauthenticate(call, tokens[0]).json()["message"] == "jwt revoked"
    assert_throttled(login(call))


def test_failed_reauthentication_is_not_counted(configure, call, user):
    configure(THROTTLE_RATE="2/min")
    token = login(call).json()["accessToken"]
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    answers = {reauthenticate(call, forged).status_code for _ in range(10)}
    answers |= {reauthenticate(call, "not-a-token").status_code for _ in range(10)}
    answers |= {logout(call, forged).status_code for _ in range(10)}
    assert answers == {401}
    assert login(call).status_code == 201
    assert_throttled(login(call))


def test_requests_naming_no_allowed_strategy_are_not_counted(configure, call, user):
    configure(THROTTLE_RATE="1/min")
    answers = [
        call("POST", "/authentication", json={}).status_code,
        call("POST", "/authentication", json={"strategy": "oauth"}).status_code,
        call("POST", "/authentication", json={"strategy": "session"}).status_code,
        call("POST", "/authentication", json=["local"]).status_code,
        call("POST", "/authentication", json="local").status_code,
        call(
            "POST",
            "/authentication",
            data=b'{"strategy": "local"',
            headers={"Content-Type": "application/json"},
        ).status_code,
    ]
    assert answers == [401, 401, 401, 405, 400, 400]
    assert login(call).status_code == 201
    assert_throttled(login(call))


def test_session_logins_are_not_counted(configure, call, user):
    configure(THROTTLE_RATE="1/min", AUTH_STRATEGIES=["local", "jwt", "session"])
    browser = Client()
    browser.force_login(user)
    cookie = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
    csrf = "c" * 32
    assert login(call).status_code == 201
    assert_throttled(login(call))
    for _ in range(3):
        response = call(
            "POST",
            "/authentication",
            json={"strategy": "session"},
            cookies={django_settings.SESSION_COOKIE_NAME: cookie, "csrftoken": csrf},
            headers={"X-CSRFToken": csrf},
        )
        assert response.status_code == 201, response.text
        assert response.json()["authentication"]["strategy"] == "session"


@pytest.mark.parametrize("strategy", ["PinStrategy", "ExplicitPinStrategy"])
def test_a_project_strategy_is_counted_unless_it_opts_out(configure, call, user, strategy):
    configure(
        THROTTLE_RATE="3/min",
        STRATEGIES={"pin": f"{HERE}.{strategy}", "link": f"{HERE}.LoginLinkStrategy"},
        AUTH_STRATEGIES=["local", "jwt", "pin", "link"],
    )
    link = signing.dumps(EMAIL, salt=SIGNING_SALT)
    for _ in range(5):
        assert call("POST", "/authentication", json={"strategy": "link", "link": link}).ok
    assert call("POST", "/authentication", json={"strategy": "link", "link": "x"}).status_code == (
        401
    )

    def pin(value):
        return call(
            "POST", "/authentication", json={"strategy": "pin", "email": EMAIL, "pin": value}
        )

    assert [pin("0000").status_code, pin("2468").status_code] == [401, 201]
    # `pin` and `local` share the count: it is the client's, whatever the strategy.
    assert login(call).status_code == 201
    assert_throttled(pin("2468"))
    assert_throttled(login(call))
    assert call("POST", "/authentication", json={"strategy": "link", "link": link}).ok


def test_project_throttle_classes_apply_to_the_same_requests(configure, call, user):
    configure(THROTTLE_CLASSES=[f"{HERE}.TwoLoginsPerMinute"])
    token = login(call).json()["accessToken"]
    for _ in range(5):
        assert reauthenticate(call, token).status_code == 201
    assert login(call).status_code == 201
    assert_throttled(login(call))
    assert reauthenticate(call, token).status_code == 201
    assert logout(call, token).status_code == 200


def test_an_invented_forwarded_for_header_gets_no_fresh_allowance(configure, call, user):
    configure(THROTTLE_RATE="3/min")
    answers = [
        login_with_headers(call, {"X-Forwarded-For": f"203.0.113.{n}"}).status_code
        for n in range(3)
    ]
    assert answers == [201, 201, 201]
    assert_throttled(login_with_headers(call, {"X-Forwarded-For": "198.51.100.7"}))
    assert_throttled(login_with_headers(call, {"X-Forwarded-For": "198.51.100.7, 10.0.0.1"}))
    assert_throttled(login(call))


def test_behind_declared_proxies_the_address_they_appended_is_counted(
    configure, call, user, settings
):
    settings.REST_FRAMEWORK = {"NUM_PROXIES": 1}
    configure(THROTTLE_RATE="2/min")

    def via_proxy(client_address, forged=None):
        # The proxy appends the address it saw to whatever the client sent.
        value = f"{forged}, {client_address}" if forged else client_address
        return login_with_headers(call, {"X-Forwarded-For": value})

    assert [via_proxy("192.0.2.10").status_code, via_proxy("192.0.2.10").status_code] == [201, 201]
    assert_throttled(via_proxy("192.0.2.10", forged="203.0.113.99"))
    assert_throttled(via_proxy("192.0.2.10", forged="203.0.113.100, 203.0.113.101"))
    # Another client behind the same proxy has its own count.
    assert via_proxy("192.0.2.20").status_code == 201


def login_with_headers(call, headers):
    body = {"strategy": "local", "email": EMAIL, "password": PASSWORD}
    return call("POST", "/authentication", json=body, headers=headers)

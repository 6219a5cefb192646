"""
The `authentication` service: create authenticates (a token), remove logs out.

    POST   {base}/authentication  {"strategy": "local", "email": "a@b.com", "password": "..."}
    201    {"accessToken": T, "authentication": {"strategy": "local", "payload": {...}},
            "user": {"id": 1, "email": "a@b.com"}}
    DELETE {base}/authentication  Authorization: Bearer T   -> 200, the same shape

With refresh tokens on (`"refresh"` in `AUTH_STRATEGIES`, see `refresh.py`), a login answers a
`refreshToken` beside the `accessToken` (or sets it as a cookie, `REFRESH["COOKIE"]`), and a
logout ends the login its access token belongs to.

Mounted at `AUTHENTICATION["SERVICE_PATH"]` when the project configures `AUTHENTICATION`.
Its throttles (`THROTTLE_RATE`, `THROTTLE_CLASSES`) count only logins with a `throttled`
strategy (`local`), never logouts or `jwt` re-authentication. Every answer, errors included,
says `Cache-Control: no-store` and `Pragma: no-cache`: no cache may keep a token.
Subclass it (and name the subclass in `AUTHENTICATION["SERVICE_CLASS"]`) to add claims with
`get_payload`, or to change how the user is sent with `serialize_entity`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.cache import add_never_cache_headers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from django_services.conf import import_from_string

from ..pipeline.params import Params
from ..registry import get_service
from ..services.service import Service
from .authenticators import get_access_token
from .config import authentication_settings
from .entity import login_field_names, subject_for
from .exceptions import NotAuthenticated
from .refresh import (
    FAMILY_CLAIM,
    end_family,
    issue_refresh_token,
    refresh_enabled,
    refresh_options,
)
from .refresh_cookie import apply_refresh_cookie, clear_refresh_cookie, set_refresh_cookie
from .revocation import revoke
from .strategies import NO_STRATEGY, AuthenticationResult, allowed_strategy, get_strategy
from .tokens import access_token_claims, encode_access_token

__all__ = ["AuthenticationService"]


class AuthenticationService(Service):
    """
    Feathers' `AuthenticationService`, on the strategies of `AUTHENTICATION["STRATEGIES"]`.

    Credentials travel in the body, so no authentication class runs before `create` (a stale
    token in the headers cannot block a login); `remove` reads the token itself.
    """

    authentication_classes: Any = []
    permission_classes: Any = [AllowAny]
    # DELETE {base}/authentication has no id: it is logout, not a multi remove.
    multi: Any = ["remove"]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """DRF's, then the headers that keep every answer out of caches (RFC 6749, 5.1)."""
        response = super().finalize_response(request, response, *args, **kwargs)
        apply_refresh_cookie(request, response)
        add_never_cache_headers(response)
        response["Pragma"] = "no-cache"
        return response

    def get_throttles(self) -> list[Any]:
        """Instantiate `AUTHENTICATION["THROTTLE_CLASSES"]`, unless the class sets its own."""
        classes = self.throttle_classes
        if classes is None:
            classes = [
                import_from_string(path, f"['AUTHENTICATION']['THROTTLE_CLASSES'][{index}]")
                for index, path in enumerate(authentication_settings()["THROTTLE_CLASSES"])
            ]
        return [cls() for cls in classes]

    def check_throttles(self, request: Any) -> None:
        """Run the throttles on the requests `should_throttle` picks, and on no other."""
        if self.should_throttle(request):
            super().check_throttles(request)

    def should_throttle(self, request: Any) -> bool:
        """
        Whether the throttles count (and may refuse) this request: a `create` whose strategy
        is allowed by `AUTH_STRATEGIES` and `throttled` (`local`, and a project's strategies
        unless they opt out). Logouts, `jwt` and `session` logins, and bodies naming no allowed
        strategy, check no guessable secret: they are neither counted nor refused.
        """
        if self.action != "create":
            return False
        data = request.data
        if not isinstance(data, Mapping):
            return False
        try:
            strategy = allowed_strategy(data.get("strategy"))
        except NotAuthenticated:
            return False
        return bool(strategy.throttled)

    def create(self, data: Any, params: Params) -> dict[str, Any]:
        """Authenticate with the strategy named in `data`, and return a token for the user."""
        if not isinstance(data, Mapping):
            raise NotAuthenticated(NO_STRATEGY)
        strategy = allowed_strategy(data.get("strategy"))
        result = strategy.authenticate(data, params.request)
        return self.build_result(result, params)

    def remove(self, id: str | None, params: Params) -> dict[str, Any]:
        """
        Log out with the request's token: check it, revoke it when revocation is on, and
        return what re-authenticating with it would. An id, when given, must be that token.
        """
        token = self.get_logout_token(params)
        if token is None:
            raise NotAuthenticated(NO_STRATEGY)
        if id is not None and id != token:
            raise NotAuthenticated("Invalid access token")
        result = get_strategy("jwt").authenticate({"accessToken": token}, params.request)
        payload = result.authentication["payload"]
        revoke(payload)
        end_family(payload.get(FAMILY_CLAIM))
        if params.request is not None:
            clear_refresh_cookie(params.request)
        return self.build_result(result, params)

    def get_logout_token(self, params: Params) -> str | None:
        """Return the token to log out: the request's header, or `params.authentication`."""
        if params.request is not None:
            token = get_access_token(params.request)
            if token is not None:
                return token
        authentication = params.authentication
        if isinstance(authentication, Mapping):
            return authentication.get("accessToken")
        return None

    def build_result(self, result: AuthenticationResult, params: Params) -> dict[str, Any]:
        """
        Return the response body: `accessToken`, `authentication`, then the entity, in
        Feathers' order. A strategy that already holds a valid token (jwt) gets it back.
        """
        authentication = dict(result.authentication)
        token = authentication.get("accessToken")
        refresh_token = None
        if token is None:
            claims = access_token_claims(
                subject_for(result.user), self.get_payload(result, params), user=result.user
            )
            refresh_token, family = self.refresh_token_for(result, params)
            if family is not None:
                claims[FAMILY_CLAIM] = family
            token = encode_access_token(claims)
            authentication["payload"] = claims
        body: dict[str, Any] = {"accessToken": token}
        if refresh_token is not None:
            body["refreshToken"] = refresh_token
        body["authentication"] = authentication
        entity = authentication_settings()["ENTITY"]
        if entity:
            body[entity] = self.serialize_entity(result.user, params)
        return body

    def refresh_token_for(
        self, result: AuthenticationResult, params: Params
    ) -> tuple[str | None, str | None]:
        """
        Return `(refresh token for the body, family)` of a login that mints an access token:
        the refresh strategy's heir, or a new family's first token; `(None, None)` with
        refresh tokens off. In cookie mode a REST login sets the cookie instead (the body gets
        None), and a socket login, which has no cookie to set, gets no refresh token (a socket
        refresh with a token in its body gets the heir in the body).
        """
        if not refresh_enabled():
            return None, None
        cookie_mode = bool(refresh_options()["COOKIE"])
        in_cookie = cookie_mode and params.provider == "rest" and params.request is not None
        if result.refresh_token is not None:
            # A refresh answers the heir: in the cookie over REST in cookie mode, otherwise in
            # the body (a socket has no cookie to set).
            token, family = result.refresh_token, result.refresh_family
        elif cookie_mode and not in_cookie:
            return None, None
        else:
            token, family = issue_refresh_token(result.user)
        if in_cookie:
            set_refresh_cookie(params.request, token)
            return None, family
        return token, family

    def get_payload(self, result: AuthenticationResult, params: Params) -> dict[str, Any]:
        """Return claims to add to new tokens (none by default); the standard ones always win."""
        return {}

    def serialize_entity(self, user: Any, params: Params) -> Any:
        """
        Return the user as the response's entity: the result of `get` on the entity service
        (`ENTITY_SERVICE`), as an external call, so it shows what the service shows. Without
        that service, the user's id and login fields, never a password.
        """
        try:
            service = get_service(authentication_settings()["ENTITY_SERVICE"])
        except KeyError:
            return {name: getattr(user, name) for name in login_field_names(type(user))}
        if hasattr(service, "_get_field_tables"):
            entity_id = str(getattr(user, service._get_field_tables().id_lookup[0]))
        else:
            entity_id = subject_for(user)
        entity_params = Params(
            headers=params.headers, provider=params.provider or "rest", user=user
        )
        return service.get(entity_id, entity_params)

"""The demo page: todos and a chat in the browser, live over Feathers' socket.io client."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from .seed import DEMO_EMAIL, DEMO_PASSWORD


@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    """
    The page. For a user logged in to Django, the page fetches a token with the `session`
    strategy over its socket; otherwise it offers the `local` strategy's form. The CSRF
    cookie is for REST writes made with the session.
    """
    return render(
        request,
        "demo/index.html",
        {"demo_email": DEMO_EMAIL, "demo_password": DEMO_PASSWORD},
    )

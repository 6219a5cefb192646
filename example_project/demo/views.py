"""The demo page: a todo list in the browser, talking to the services with Feathers' client."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from .seed import DEMO_EMAIL, DEMO_PASSWORD


@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    """
    The page. For a user logged in to Django, the page fetches a token with the `session`
    strategy (sending the CSRF token); otherwise it offers the `local` strategy's form.
    """
    return render(
        request,
        "demo/index.html",
        {"demo_email": DEMO_EMAIL, "demo_password": DEMO_PASSWORD},
    )

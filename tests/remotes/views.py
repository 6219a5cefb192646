"""Views calling remotes through `request.remotes`, as a project's views do."""

from __future__ import annotations

import json

from django.http import JsonResponse

from django_services.errors import FeathersError


def _answer(call):
    try:
        return JsonResponse(call(), safe=False)
    except FeathersError as error:
        return JsonResponse(error.to_json(), status=error.code)


async def _aanswer(call):
    try:
        return JsonResponse(await call(), safe=False)
    except FeathersError as error:
        return JsonResponse(error.to_json(), status=error.code)


def call_remote(request, alias, path):
    """GET: `find` on the remote's service; POST: `create` with the request's JSON body."""
    service = request.remotes[alias].service(path)
    if request.method == "POST":
        return _answer(lambda: service.create(json.loads(request.body or b"{}")))
    return _answer(service.find)


async def acall_remote(request, alias, path):
    """The same, in an async view, for remotes with async connections."""
    service = request.remotes[alias].service(path)
    if request.method == "POST":
        return await _aanswer(lambda: service.create(json.loads(request.body or b"{}")))
    return await _aanswer(service.find)

"""The caller project's views: one tells its process, the others call the remote."""

from __future__ import annotations

import os

from django.http import JsonResponse
from django.urls import path

from django_services.client.remotes import remotes


def ready(request):
    return JsonResponse({"pid": os.getpid()})


def call(request):
    answer = remotes["login"].service("caller").find()
    return JsonResponse({"pid": os.getpid(), "authorization": answer["authorization"]})


async def acall(request):
    answer = await remotes["login"].service("caller").find()
    return JsonResponse({"pid": os.getpid(), "authorization": answer["authorization"]})


urlpatterns = [
    path("ready", ready),
    path("call", call),
    path("acall", acall),
]

"""
`Service`: a Feathers service written as plain Python methods, served by DRF.

    class EchoService(Service):
        permission_classes = [IsAuthenticated]     # any DRF policy works

        def find(self, params):
            return [{"query": params.query}]

        def get(self, id, params):
            if id == "0":
                raise NotFound(f"No record found for id '{id}'")
            return {"id": id, "user": params.user.pk}

        @service_method
        def shout(self, data, params):
            return {"text": data["text"].upper()}

    DJANGO_SERVICES = {"SERVICES": {"echo": "myapp.services.EchoService"}}

Implement any of `find(params)`, `get(id, params)`, `create(data, params)`,
`update(id, data, params)`, `patch(id, data, params)`, `remove(id, params)`: the methods a
service implements are the ones it exposes, the others answer 405. For a service backed by a
model and a serializer, use `ModelService`.
"""

from __future__ import annotations

from rest_framework.views import APIView

from .base_service import BaseService

__all__ = ["Service"]


class Service(BaseService, APIView):
    """
    A service whose methods are plain Python, as a Feathers service class.

    Each method receives `id` (a string from the URL, or None for multi patch/remove), `data`
    (the decoded JSON body: a dict, or a list for multi create) and `params` (a `Params`), and
    returns JSON-serialisable data (or `None` for 204, or a DRF `Response`). Raise a
    `django_services.errors` class (or any DRF/Django exception) to answer an error.

    Everything `BaseService` documents applies: options `methods` and `multi`, DRF's
    `authentication_classes`, `permission_classes`, `throttle_classes`, and the `get_*` hooks.
    The REST adapter serves it through a view class of its own (`rest.views.view_class`).
    """

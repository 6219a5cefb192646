"""
URLs of the conformance fixture: `POST /__reset`, then every service at the root.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tests.testapp.models import Message, Note, Person, PersonCustomId, Todo, User

#: Every table the fixture's services write to.
FIXTURE_MODELS = (Person, PersonCustomId, Message, Todo, Note, User)


@csrf_exempt
@require_POST
def reset(request):
    """Empty every fixture table, so each test starts from nothing."""
    with transaction.atomic():
        for model in FIXTURE_MODELS:
            model._default_manager.all().delete()
    return HttpResponse(status=204)


urlpatterns = [
    path("__reset", reset),
    path("", include("django_services.urls")),
]

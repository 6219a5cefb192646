"""A plain DRF view behind the package's authentication classes, then every service."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from django_services.server.authentication import JWTAuthentication, SessionAuthentication


class WhoAmIView(APIView):
    """A plain DRF view: the classes work outside services too."""

    authentication_classes = [JWTAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({"email": request.user.email, "authentication": request.auth})

    post = get


urlpatterns = [
    path("drf-whoami", WhoAmIView.as_view()),
    path("", include("django_services.urls")),
]

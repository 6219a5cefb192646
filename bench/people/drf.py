"""
The DRF variant: what a Django user writes today, a `ModelViewSet` with
`LimitOffsetPagination`, DRF's `OrderingFilter` and a hand-written filter.

    GET  /drf/people/?age__gt=30&ordering=-age,-id&limit=10
    GET  /drf/people/?limit=10&offset=90000
    GET  /drf/people/42/
    POST /drf/people/ {"name": "Ada", "age": 36}
"""

from __future__ import annotations

from typing import Any

from rest_framework import filters, routers, serializers, viewsets
from rest_framework.pagination import LimitOffsetPagination

from .models import Person
from .serializers import PersonSerializer


class PeoplePagination(LimitOffsetPagination):
    default_limit = 10
    max_limit = 50


class PersonViewSet(viewsets.ModelViewSet):
    queryset = Person.objects.order_by("id")
    serializer_class = PersonSerializer
    pagination_class = PeoplePagination
    filter_backends = [filters.OrderingFilter]
    ordering_fields = ["id", "name", "age", "created"]

    def get_queryset(self) -> Any:
        queryset = super().get_queryset()
        params = self.request.query_params
        if "age__gt" in params:
            age = serializers.IntegerField().run_validation(params["age__gt"])
            queryset = queryset.filter(age__gt=age)
        if "name" in params:
            queryset = queryset.filter(name=params["name"])
        return queryset


router = routers.SimpleRouter()
router.register("people", PersonViewSet)
urlpatterns = router.urls

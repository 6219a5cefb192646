"""
The django-feathers variant: a `ModelService`, as the package's documentation declares one.

    GET  /services/people?age[$gt]=30&$sort[age]=-1&$limit=10
    GET  /services/people/42
    POST /services/people {"name": "Ada", "age": 36}
"""

from __future__ import annotations

from django_services.server import ModelService

from .models import Person
from .serializers import PersonSerializer


class PersonService(ModelService):
    queryset = Person.objects.all()
    serializer_class = PersonSerializer
    paginate = {"default": 10, "max": 50}

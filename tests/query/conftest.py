"""Helpers for the query tests: the Feathers adapter-tests people, and a find in one call."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import pytest

from django_services.query import codec, find, model_query_fields, parse_query
from tests.server.conftest import serve  # noqa: F401 - the fixture of the tests over HTTP

# Models are imported inside the fixtures: this file is read before Django is set up.


def run_find(
    model: Any,
    query: Mapping[str, Any] | str,
    *,
    paginate: Mapping[str, int] | None = None,
    operators: Collection[str] = (),
    exclude: Collection[str] = (),
) -> tuple[int | None, list[Any]]:
    """A find as a server runs it: the query goes through the query string first."""
    query_string = query if isinstance(query, str) else codec.stringify(query)
    parsed = parse_query(
        codec.parse(query_string),
        fields=model_query_fields(model, exclude=exclude),
        paginate=paginate,
        operators=operators,
    )
    return find(model.objects.all(), parsed, paginated=paginate is not None)


def names(rows: list[Any]) -> list[str]:
    return [row.name for row in rows]


@pytest.fixture
def people(db):
    """Bob (25), Doug (32) and Alice (19), as Feathers' adapter-tests create them."""
    from tests.testapp.models import Person

    return {
        person.name: person
        for person in [
            Person.objects.create(name="Bob", age=25),
            Person.objects.create(name="Doug", age=32),
            Person.objects.create(name="Alice", age=19),
        ]
    }


@pytest.fixture
def sample_fields():
    """Every field of Sample but the private `secret`."""
    from tests.testapp.models import Sample

    return model_query_fields(Sample, exclude=["secret"])

"""
How many of the package's modules one REST find runs through: the rooms a reader visits to
follow a request, counted with a profile hook and held where it is. The declaration and the
merged query modules took it from 26 to 25; the input checks below every transport (`inputs`)
and the method table of `contract` add two, the validators and preconditions of conditional
requests (`conditional`) one. A query string read within the input limits is not walked again
(`inputs`), a body not sent in chunks is not looked at by `parsers`, and the pipeline reads the
method table itself (`contract`): 25. The compact JSON every transport hashes (`encoding`) adds
one; content negotiation beside the renderers, the verb -> method table in the REST view, and
the router in the registry take three away: 23. A call of a service that declares no hooks,
in an app that declares none, builds no hook chain (`hooks`): 22.
"""

from __future__ import annotations

import sys

import pytest

from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture
from tests.server.http import M, body
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db

#: The most modules of the package a paginated find may call into.
MOST_MODULES = 22
#: What the in-memory test database runs and a file database does not: its writes' lock waits.
TEST_DATABASE_ONLY = {"django_services.sqlite_locks"}


def modules_called(call):
    """The modules whose functions run during `call()`, and its result."""
    modules = set()

    def profile(frame, event, arg):
        if event == "call":
            modules.add(frame.f_globals.get("__name__", ""))

    sys.setprofile(profile)
    try:
        result = call()
    finally:
        sys.setprofile(None)
    ours = {name for name in modules if name.startswith("django_services")}
    return ours - TEST_DATABASE_ONLY, result


def test_a_find_runs_through_few_modules(api, serve):
    serve({"people": {"class": M + "PersonService", "paginate": {"default": 10, "max": 50}}})
    Person.objects.create(name="Ann", age=30)
    path = "/people?age[$gt]=20&$sort[age]=-1"
    api.get(path)  # what is built once per class is built

    modules, response = modules_called(lambda: api.get(path))

    assert body(response)["data"][0]["name"] == "Ann"
    assert "django_services.server.services.query_set" in modules  # the trace sees the declaration
    assert len(modules) <= MOST_MODULES, sorted(modules)

"""
What is measured: each workload as each variant serves it.

    FIND.request("services")          # Request("GET", "/services/people?age%5B%24gt%5D=30...")
    GET.request("drf", id=42)         # Request("GET", "/drf/people/42/")

Variants: `services` (django-feathers), `drf` (a DRF ModelViewSet with LimitOffsetPagination),
`plain` (Django views returning JsonResponse: the floor), and `feathers` (the FeathersJS
reference server, the django-feathers requests without the `/services` mount). Query
strings are written encoded, as clients send them.
"""

from __future__ import annotations

import dataclasses
import json
from urllib.parse import quote

from .data import sample_name

VARIANTS = ("services", "drf", "plain")
#: The FeathersJS reference server serves the django-feathers paths without the `/services` mount.
FEATHERS = "feathers"
# Age 10 and a name outside the data set: created people never match the find workloads.
CREATE_BODY = json.dumps({"name": "Grace B. Hopper", "age": 10})
# Feathers' knex adapter has no model default for `created`: the body carries it.
FEATHERS_CREATE_BODY = json.dumps(
    {"name": "Grace B. Hopper", "age": 10, "created": "2024-01-01T00:00:00Z"}
)


@dataclasses.dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: str | None = None


@dataclasses.dataclass(frozen=True)
class Workload:
    """A request per variant; `{id}` in a path is replaced by a random existing id."""

    name: str
    description: str
    paths: dict[str, str] = dataclasses.field(hash=False)
    method: str = "GET"
    body: str | None = None

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(variant for variant in VARIANTS if variant in self.paths)

    @property
    def random_id(self) -> bool:
        return any("{id}" in path for path in self.paths.values())

    def request(self, variant: str, id: int = 1) -> Request:
        if variant == FEATHERS:
            path = self.paths["services"].removeprefix("/services")
            body = FEATHERS_CREATE_BODY if self.body else None
        else:
            path, body = self.paths[variant], self.body
        return Request(self.method, path.replace("{id}", str(id)), body)


def _q(text: str) -> str:
    return quote(text, safe="=&,-")


FIND = Workload(
    "find",
    "age > 30, sorted by age descending, 10 per page, with the total",
    {
        "services": "/services/people?" + _q("age[$gt]=30&$sort[age]=-1&$limit=10"),
        "drf": "/drf/people/?age__gt=30&ordering=-age,-id&limit=10",
        "plain": "/plain/people?age__gt=30&sort=-age&limit=10",
    },
)
GET = Workload(
    "get",
    "one person by a random id",
    {
        "services": "/services/people/{id}",
        "drf": "/drf/people/{id}/",
        "plain": "/plain/people/{id}",
    },
)
CREATE = Workload(
    "create",
    "insert one person from a JSON body",
    {"services": "/services/people", "drf": "/drf/people/", "plain": "/plain/people"},
    method="POST",
    body=CREATE_BODY,
)
DEEP_PAGE = Workload(
    "deep-page",
    "10 people after skipping 90,000, in id order, with the total",
    {
        "services": "/services/people?" + _q("$skip=90000&$limit=10"),
        "drf": "/drf/people/?limit=10&offset=90000",
        "plain": "/plain/people?limit=10&offset=90000",
    },
)
FIND_SELECTIVE = Workload(
    "find-selective",
    "name = one of 2,500 names (indexed), 10 per page, with the total",
    {"services": "/services/people?" + _q(f"name={sample_name()}&$limit=10").replace(" ", "%20")},
)
FIND_UNPAGINATED = Workload(
    "find-unpaginated",
    "as find, on a service without pagination (no total)",
    {"services": "/services/people-unpaginated?" + _q("age[$gt]=30&$sort[age]=-1&$limit=10")},
)

COMPARED = (FIND, GET, CREATE, DEEP_PAGE)
SCALING = (FIND, FIND_SELECTIVE, FIND_UNPAGINATED, DEEP_PAGE)
ALL = (FIND, GET, CREATE, DEEP_PAGE, FIND_SELECTIVE, FIND_UNPAGINATED)
BY_NAME = {workload.name: workload for workload in ALL}

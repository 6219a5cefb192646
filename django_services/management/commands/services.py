"""
`manage.py services`: the services of this project, their routes and options.

    $ python manage.py services
    PATH                 CLASS                         METHODS                   PAGINATE  ...
    todos                todos.services.TodoService    find get create patch...  10 (max 50)
    $ python manage.py services --json
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from django_services.server.registry import Route, services
from django_services.server.services.methods import STANDARD_METHODS

COLUMNS = ("path", "class", "methods", "paginate", "multi", "id_field")


def describe(route: Route) -> dict[str, Any]:
    """What the command shows of a service: everything a client needs to call it."""
    service = route.instance()
    exposed = service.get_methods()
    standard = [name for name in STANDARD_METHODS if name in exposed]
    custom = sorted(name for name in exposed if name not in STANDARD_METHODS)
    declaration = getattr(service, "get_query_declaration", None)
    paginate = declaration().get_paginate() if declaration is not None else None
    cls = route.service_class
    return {
        "path": route.path,
        "class": f"{cls.__module__}.{cls.__qualname__}",
        "methods": standard + custom,
        "paginate": (
            {"default": paginate.default, "max": paginate.max} if paginate is not None else None
        ),
        "multi": _multi(service._get_multi()),
        "id_field": _id_field(service),
    }


def _id_field(service: Any) -> str | None:
    # Read from the options: a service's get_queryset() may need the request it serves.
    if getattr(service, "id_field", None):
        return service.id_field
    queryset = getattr(service, "queryset", None)
    return queryset.model._meta.pk.name if queryset is not None else None


def _multi(value: bool | Collection[str]) -> bool | list[str]:
    if isinstance(value, bool):
        return value
    return [name for name in ("create", "patch", "remove") if name in value]


def _cell(column: str, value: Any) -> str:
    if column == "methods":
        return " ".join(value)
    if column == "paginate":
        if value is None:
            return "-"
        default = "all" if value["default"] is None else str(value["default"])
        return default if value["max"] is None else f"{default} (max {value['max']})"
    if column == "multi":
        return ("yes" if value else "no") if isinstance(value, bool) else " ".join(value)
    return "-" if value is None else str(value)


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as aligned text columns under a header."""
    header = [column.replace("_", " ").upper() for column in COLUMNS]
    cells = [[_cell(column, row[column]) for column in COLUMNS] for row in rows]
    widths = [max(len(line[index]) for line in [header, *cells]) for index in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in [header, *cells]
    )


class Command(BaseCommand):
    help = (
        "List the services of this project: path, class, methods, pagination (page size and "
        "largest page), multi (the methods taking several records) and id field."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--json", action="store_true", help="Print a JSON list instead of a table."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rows = [describe(route) for route in services.routes()]
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        if options["json"]:
            self.stdout.write(json.dumps(rows, indent=2))
        elif rows:
            self.stdout.write(table(rows))
        else:
            self.stdout.write("No services: declare them in DJANGO_SERVICES['SERVICES'].")

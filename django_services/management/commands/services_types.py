"""
`manage.py services_types`: typed client definitions of the services, from their OpenAPI schema.

    $ python manage.py services_types --typescript frontend/src/services.d.ts
    $ python manage.py services_types --python myclient/services_types.py
    $ python manage.py services_types --typescript - | less        # to stdout

The TypeScript declarations give `ServiceTypes`, for `feathers<ServiceTypes>()`, and each
service's record, data, patch and query types; the Python module gives the same as `TypedDict`s.
Needs the `openapi` extra (`pip install "django-services[openapi]"`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Write TypeScript declarations and Python TypedDicts of the services."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--typescript", metavar="PATH", help="Write the TypeScript declarations (- for stdout)."
        )
        parser.add_argument(
            "--python", metavar="PATH", help="Write the Python TypedDicts (- for stdout)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["typescript"] and not options["python"]:
            raise CommandError("Name at least one output: --typescript PATH or --python PATH.")
        try:
            from django_services.openapi.generators import ServicesSchemaGenerator
            from django_services.openapi.typeddicts import python_typeddicts
            from django_services.openapi.typescript import typescript_declarations
        except ImportError as exc:
            raise CommandError(
                f"{exc}: install the openapi extra, pip install 'django-services[openapi]'."
            ) from exc
        schema = ServicesSchemaGenerator().get_schema(request=None, public=True)
        if options["typescript"]:
            self.write(options["typescript"], typescript_declarations(schema))
        if options["python"]:
            self.write(options["python"], python_typeddicts(schema))

    def write(self, target: str, source: str) -> None:
        if target == "-":
            sys.stdout.write(source)
            return
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        self.stderr.write(f"Wrote {path}")

"""
`manage.py services_types`: typed client definitions of the services, from their OpenAPI schema.

    $ python manage.py services_types --typescript frontend/src/services.d.ts
    $ python manage.py services_types --python myclient/services_types.py
    $ python manage.py services_types --typescript - | less        # to stdout
    $ python manage.py services_types --python billing_types.py \\
          --schema https://billing.example.com/api/schema/       # another server's services

The TypeScript declarations give `ServiceTypes`, for `feathers<ServiceTypes>()`, and each
service's record, data, patch and query types; the Python module gives the same as `TypedDict`s.
Without `--schema` they describe this project's services; with it, those of the schema at a URL
(a django-feathers server's `/api/schema/`, say, as its remote's caller needs) or in a file.
Needs the `openapi` extra (`pip install "django-feathers[openapi]"`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import requests
from django.core.management.base import BaseCommand, CommandError, CommandParser

#: Seconds to wait for a schema served at a URL.
SCHEMA_TIMEOUT = 30


class Command(BaseCommand):
    help = "Write TypeScript declarations and Python TypedDicts of the services."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--typescript", metavar="PATH", help="Write the TypeScript declarations (- for stdout)."
        )
        parser.add_argument(
            "--python", metavar="PATH", help="Write the Python TypedDicts (- for stdout)."
        )
        parser.add_argument(
            "--schema",
            metavar="URL_OR_PATH",
            help="The OpenAPI schema of another django-feathers server (a URL, or a JSON or "
            "YAML file) to describe instead of this project's services.",
        )
        parser.add_argument(
            "--header",
            action="append",
            default=[],
            metavar="NAME: VALUE",
            help="A header sent with the request for a --schema URL (repeatable).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["typescript"] and not options["python"]:
            raise CommandError("Name at least one output: --typescript PATH or --python PATH.")
        try:
            from django_services.openapi.generators import (
                SERVICES_EXTENSION,
                ServicesSchemaGenerator,
            )
            from django_services.openapi.typeddicts import python_typeddicts
            from django_services.openapi.typescript import typescript_declarations
        except ImportError as exc:
            raise CommandError(
                f"{exc}: install the openapi extra, pip install 'django-feathers[openapi]'."
            ) from exc
        if options["schema"]:
            schema = read_schema(options["schema"], _headers(options["header"]))
            if not isinstance(schema, dict) or SERVICES_EXTENSION not in schema:
                raise CommandError(
                    f"{options['schema']} describes no Feathers services (it has no "
                    f"{SERVICES_EXTENSION!r}): give the schema a django-feathers server serves."
                )
        else:
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


def read_schema(source: str, headers: dict[str, str]) -> Any:
    """The schema at a URL (asked for as JSON) or in a file (JSON or YAML)."""
    if source.startswith(("http://", "https://")):
        try:
            response = requests.get(
                source, headers={"Accept": "application/json", **headers}, timeout=SCHEMA_TIMEOUT
            )
        except requests.RequestException as exc:
            raise CommandError(f"Could not read {source}: {exc}") from exc
        if response.status_code != 200:
            raise CommandError(
                f"{source} answered {response.status_code} {response.reason}"
                + (
                    ": add --header 'Authorization: ...'"
                    if response.status_code in (401, 403)
                    else "."
                )
            )
        text = response.text
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Could not read {source}: {exc}") from exc
    try:
        return json.loads(text)
    except ValueError:
        pass
    import yaml  # drf-spectacular's dependency

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CommandError(f"{source} is neither JSON nor YAML: {exc}") from exc


def _headers(values: list[str]) -> dict[str, str]:
    headers = {}
    for value in values:
        name, separator, content = value.partition(":")
        if not separator or not name.strip():
            raise CommandError(f"--header {value!r} must be written 'Name: value'.")
        headers[name.strip()] = content.strip()
    return headers

"""
`manage.py call_service`: call a method of a remote service, or of this project's, and print
the JSON result (or the Feathers error, with exit status 1).

    $ python manage.py call_service billing invoices find --query '{"paid": false}'
    $ python manage.py call_service billing invoices get --id 7
    $ python manage.py call_service local todos patch --id 3 --data '{"complete": true}'
    $ python manage.py call_service local users/:userId/notes find --route '{"userId": 1}' \\
          --query '$limit=5&$sort[id]=-1'
    $ python manage.py call_service local orders find --user ann@example.com

`local` calls this project's service in Python (as Feathers' internal calls: no
authentication, no permission checks), as the user of `--user` (its login, the user model's
`USERNAME_FIELD`, or its primary key) or as nobody; any other name is an alias of
`DJANGO_SERVICES["REMOTES"]`, called with the remote's own credentials. Like `shell`, the
command runs no system checks: `manage.py check` does.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Mapping
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.utils.encoders import JSONEncoder

from django_services.client.remotes import Remote, RemoteDoesNotExist, remotes
from django_services.errors import BadRequest, FeathersError, GeneralError, MethodNotAllowed
from django_services.query import codec

LOCAL = "local"
#: The exit status of a call answered with an error (argparse uses 2 for usage errors).
ERROR_STATUS = 1
USAGE_STATUS = 2


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = (
        "Call a service method and print the JSON result, or the error (name, code, message, "
        f"data) with exit status {ERROR_STATUS}. The target is '{LOCAL}' for this project's "
        "services, or the alias of a remote in DJANGO_SERVICES['REMOTES']."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("target", help=f"'{LOCAL}', or the alias of a remote.")
        parser.add_argument("path", help="The service path, e.g. 'invoices'.")
        parser.add_argument("method", help="find, get, create, update, patch, remove or custom.")
        parser.add_argument("--id", help="The record id (get, update; patch and remove one).")
        parser.add_argument("--data", help="The body, as JSON (create, update, patch, custom).")
        parser.add_argument(
            "--query", help="The query, as JSON or as a query string ('a[$gt]=1&$limit=2')."
        )
        parser.add_argument("--route", help="Values of the :placeholders of the path, as JSON.")
        parser.add_argument(
            "--header",
            action="append",
            default=[],
            metavar="NAME: VALUE",
            help="A request header for a remote call (repeatable).",
        )
        parser.add_argument(
            "--user",
            metavar="LOGIN_OR_PK",
            help=f"A '{LOCAL}' call is made as this user (params.user): its login or its pk.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call = ServiceCall(
            method=options["method"],
            id=options["id"],
            data=_json(options["data"], "--data"),
            query=_query(options["query"]),
            route=_json_object(options["route"], "--route"),
            headers=_headers(options["header"]),
        )
        if options["user"] is not None:
            if options["target"] != LOCAL:
                raise CommandError(
                    "--user is for local calls: a remote is called with its own credentials "
                    "(DJANGO_SERVICES['REMOTES'][alias]['AUTH']).",
                    returncode=USAGE_STATUS,
                )
            call.user = _user(options["user"])
        try:
            if options["target"] == LOCAL:
                result = call.local(options["path"])
            else:
                result = call.remote(_remote(options["target"]), options["path"])
        except FeathersError as error:
            self.stderr.write(json.dumps(error.to_json(), indent=2, ensure_ascii=False))
            raise CommandError(
                f"{options['method']} on {options['path']!r} failed: {error.name} ({error.code}).",
                returncode=ERROR_STATUS,
            ) from error
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False, cls=JSONEncoder))


class ServiceCall:
    """One method call, made on a remote service or on a local one."""

    def __init__(
        self,
        *,
        method: str,
        id: str | None,
        data: Any,
        query: dict[str, Any],
        route: dict[str, Any],
        headers: dict[str, str],
    ) -> None:
        self.method = method
        self.id = id
        self.data = data
        self.query = query
        self.route = route
        self.headers = headers
        self.user: Any = None

    def arguments(self, params: Any) -> tuple[Any, ...]:
        """The positional arguments of the method, Feathers' order."""
        if self.method == "find":
            return (params,)
        if self.method in ("get", "remove"):
            return (self.id, params)
        if self.method in ("update", "patch"):
            return (self.id, self.data, params)
        return (self.data, params)

    def remote(self, remote: Remote, path: str) -> Any:
        """Call the remote's service; an async remote runs in an event loop of its own."""
        if not remote.is_async:
            try:
                return self._call_remote(remote, path)
            finally:
                remote.close()

        async def run() -> Any:
            try:
                return await self._call_remote(remote, path)
            finally:
                await remote.aclose()

        return asyncio.run(run())

    def _call_remote(self, remote: Remote, path: str) -> Any:
        service = remote.service(path)
        if self.method not in service.methods:
            # Not declared in the remote's SERVICES: callable here all the same.
            try:
                service = service.bind(service.app, methods=[*service.methods, self.method])
            except ValueError as exc:
                raise CommandError(str(exc), returncode=USAGE_STATUS) from exc
        params = {"query": self.query, "route": self.route, "headers": self.headers}
        return getattr(service, self.method)(*self.arguments(params))

    def local(self, path: str) -> Any:
        """Call this project's service in Python, as an internal call."""
        from django_services.server.pipeline.errors import to_feathers_error
        from django_services.server.pipeline.params import Params
        from django_services.server.registry import get_service

        try:
            service = get_service(path)
        except KeyError as exc:
            raise CommandError(exc.args[0], returncode=USAGE_STATUS) from exc
        if self.method not in service._implemented_methods():
            raise MethodNotAllowed(f"Method `{self.method}` is not supported by this endpoint.")
        params = Params(
            query=self.query,
            route={key: str(value) for key, value in self.route.items()},
            headers={name.lower(): value for name, value in self.headers.items()},
            user=self.user,
        )
        try:
            result = getattr(service, self.method)(*self.arguments(params))
        except Exception as exc:
            error = to_feathers_error(exc)
            if isinstance(error, GeneralError) and not isinstance(exc, FeathersError):
                raise  # a bug of the service: its traceback says more than a 500
            raise error from exc
        if inspect.isawaitable(result):
            raise CommandError(f"{self.method} of {path!r} is a coroutine: not supported here.")
        return result


def _user(value: str) -> Any:
    """The user whose login (`USERNAME_FIELD`) or primary key is `value`."""
    from django.contrib.auth import get_user_model
    from django.core.exceptions import ValidationError

    model = get_user_model()
    manager = model._default_manager
    try:
        return manager.get_by_natural_key(value)
    except model.DoesNotExist:
        pass
    try:
        return manager.get(pk=value)
    except (model.DoesNotExist, ValueError, TypeError, ValidationError):
        raise CommandError(
            f"No user {value!r}: --user takes a user's {model.USERNAME_FIELD} or primary key.",
            returncode=USAGE_STATUS,
        ) from None


def _remote(alias: str) -> Remote:
    try:
        return remotes[alias]
    except RemoteDoesNotExist as exc:
        raise CommandError(
            f"{exc} Or '{LOCAL}' for this project.", returncode=USAGE_STATUS
        ) from exc


def _json(value: str | None, option: str) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value)
    except ValueError as exc:
        raise CommandError(f"{option} is not valid JSON: {exc}.", returncode=USAGE_STATUS) from exc


def _json_object(value: str | None, option: str) -> dict[str, Any]:
    parsed = _json(value, option)
    if parsed is None:
        return {}
    if not isinstance(parsed, Mapping):
        raise CommandError(f"{option} must be a JSON object.", returncode=USAGE_STATUS)
    return dict(parsed)


def _query(value: str | None) -> dict[str, Any]:
    if value is None or not value.strip():
        return {}
    if value.lstrip().startswith("{"):
        return _json_object(value, "--query")
    try:
        return codec.parse(value.lstrip("?"))
    except BadRequest as exc:
        raise CommandError(f"--query: {exc.message}", returncode=USAGE_STATUS) from exc


def _headers(values: list[str]) -> dict[str, str]:
    headers = {}
    for value in values:
        name, separator, content = value.partition(":")
        if not separator or not name.strip():
            raise CommandError(
                f"--header {value!r} must be written 'Name: value'.", returncode=USAGE_STATUS
            )
        headers[name.strip()] = content.strip()
    return headers

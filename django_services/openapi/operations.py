"""
The OpenAPI operations of one service.

    described = ServiceDescriber(registry, request).describe(route)
    described.paths     # {"/todos": {"get": ..., "post": ...}, "/todos/{id}": {...}}
    described.service   # what typed clients need: methods, multi, record, data, query...

The service instance is built as for a call, with `swagger_fake_view = True` and empty route
values, as drf-spectacular does for views; `bodies` reads what it takes and answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_mock_request

from ..server.authentication.service import AuthenticationService
from ..server.pipeline.calls import CallContext, attach
from ..server.pipeline.params import Params
from ..server.registry import Route
from ..server.rest.views import view_class
from ..server.services.methods import custom_methods
from . import extensions  # noqa: F401 - registers the authentication schemes
from .bodies import (
    ANY,
    Bodies,
    authentication_bodies,
    custom_schemas,
    free_bodies,
    method_description,
    model_bodies,
)
from .components import error_responses, json_response, union
from .conditional import add_conditional

__all__ = ["SERVICE_METHOD_HEADER", "DescribedService", "ServiceDescriber"]

SERVICE_METHOD_HEADER = "X-Service-Method"


@dataclass
class DescribedService:
    """The operations of a service, and its summary for typed clients."""

    paths: dict[str, dict[str, Any]] = field(default_factory=dict)
    service: dict[str, Any] = field(default_factory=dict)


class ServiceDescriber:
    """Describe services with drf-spectacular's machinery and component registry."""

    def __init__(self, registry: Any, request: Any = None, *, public: bool = True) -> None:
        self.registry = registry
        self.request = request
        self.public = public

    def describe(self, route: Route) -> DescribedService:
        """The paths, operations and client summary of the service at `route`."""
        service = self._instance(route)
        auto = AutoSchema()
        auto.registry = self.registry
        auto.view = service
        auto.path = "/" + route.path
        auto.method = "GET"
        if isinstance(service, AuthenticationService):
            bodies = authentication_bodies()
        elif hasattr(service, "_get_field_tables"):
            bodies = model_bodies(route, service, auto)
        else:
            bodies = free_bodies()
        described = _Operations(route, service, auto, bodies).build()
        if not self.public:
            self._keep_permitted(described, service)
        return described

    def _keep_permitted(self, described: DescribedService, service: Any) -> None:
        """Drop the operations the permissions of the service refuse to the request's user."""
        for path, item in described.paths.items():
            for verb in list(item):
                request = build_mock_request(verb.upper(), path, service, self.request)
                call = service.call
                call.request = request
                call.method = item[verb]["x-feathers-method"]
                try:
                    service.check_permissions(request)
                except Exception:
                    # A refusal, or a permission that cannot decide without a real call.
                    del item[verb]
        for path in [path for path, item in described.paths.items() if not item]:
            del described.paths[path]

    def _instance(self, route: Route) -> Any:
        service: Any = view_class(route.service_class)(path=route.path, **route.options)
        placeholders = {segment[1:]: "" for segment in route.segments if segment[0] == ":"}
        service.swagger_fake_view = True
        service.format_kwarg = None
        params = Params(route=dict(placeholders), provider="rest")
        attach(CallContext(service, None, params=params))  # type: ignore[arg-type]
        service.call.request = build_mock_request("GET", "/" + route.path, service, self.request)
        return service


class _Operations:
    """The operations of one service, built from its description."""

    def __init__(self, route: Route, service: Any, auto: AutoSchema, bodies: Bodies) -> None:
        self.route = route
        self.service = service
        self.auto = auto
        self.bodies = bodies
        self.methods = [
            name for name in service._implemented_methods() if name in service.get_methods()
        ]
        self.custom = {
            name: getattr(service, attribute)
            for name, attribute in custom_methods(type(service)).items()
            if name in self.methods
        }
        self.slug = re.sub(r"[^A-Za-z0-9]+", "_", route.path).strip("_")
        self.collection = "/" + "/".join(
            f"{{{segment[1:]}}}" if segment.startswith(":") else segment
            for segment in route.segments
        )
        placeholders = {segment[1:] for segment in route.segments if segment.startswith(":")}
        self.id_name = "id"
        while self.id_name in placeholders:
            self.id_name += "_"

    def multi(self, method: str) -> bool:
        return bool(self.service._allows_multi(method))

    def build(self) -> DescribedService:
        described = DescribedService()
        collection: dict[str, Any] = {}
        item: dict[str, Any] = {}
        if "find" in self.methods:
            collection["get"] = self.find()
        if "get" in self.methods:
            item["get"] = self.get()
        if "create" in self.methods or self.custom:
            collection["post"] = self.post()
        if "update" in self.methods:
            item["put"] = self.update()
        if "patch" in self.methods:
            item["patch"] = self.patch(with_id=True)
            if self.multi("patch"):
                collection["patch"] = self.patch(with_id=False)
        if "remove" in self.methods:
            item["delete"] = self.remove(with_id=True)
            if self.multi("remove"):
                collection["delete"] = self.remove(with_id=False)
        if collection:
            described.paths[self.collection] = collection
        if item:
            described.paths[f"{self.collection}/{{{self.id_name}}}"] = item
        described.service = self.summary()
        return described

    # Operations ------------------------------------------------------------------------------

    def find(self) -> dict[str, Any]:
        bodies = self.bodies
        if bodies.page is not None:
            result = bodies.page
        else:
            result = {"type": "array", "items": bodies.result} if bodies.result else ANY
        return self.operation(
            "GET",
            "find",
            "Find the records matching the query"
            + (", a page at a time." if bodies.paginated else "."),
            query="find",
            responses={"200": json_response("The matching records.", result)},
        )

    def get(self) -> dict[str, Any]:
        return self.operation(
            "GET",
            "get",
            "Get the record with this id (404 unless it also matches the query).",
            query="id",
            with_id=True,
            responses={"200": json_response("The record.", self.bodies.result)},
        )

    def post(self) -> dict[str, Any]:
        bodies = self.bodies
        responses: dict[str, Any] = {}
        parameters: list[dict[str, Any]] = []
        requests: list[dict[str, Any]] = []
        summary = []
        if isinstance(self.service, AuthenticationService):
            summary.append("Log in: answers an access token for the strategy's credentials.")
        elif "create" in self.methods:
            summary.append(
                "Create a record"
                + (" (or several, from an array)." if self.multi("create") else ".")
            )
        if "create" in self.methods:
            data, result = bodies.data, bodies.result
            if self.multi("create"):
                data = {"oneOf": [data, {"type": "array", "items": data}]}
                result = {"oneOf": [result, {"type": "array", "items": result}]}
            requests.append(data)
            responses["201"] = json_response("The created record (records, for an array).", result)
        if self.custom:
            names = list(self.custom)
            parameters.append(
                {
                    "name": SERVICE_METHOD_HEADER,
                    "in": "header",
                    "required": "create" not in self.methods,
                    "description": "Call a custom method instead of `create`.",
                    "schema": {"type": "string", "enum": names},
                }
            )
            results, may_be_empty = [], False
            for name, method in self.custom.items():
                data_schema, result_schema, empty = custom_schemas(method)
                if data_schema != ANY or not requests:
                    # Free-form data would make the whole body free-form: the create body
                    # stays documented, and the custom method takes any JSON anyway.
                    requests.append(data_schema)
                if result_schema is not None:
                    results.append(result_schema)
                may_be_empty = may_be_empty or empty
                doc = method_description(method)
                summary.append(
                    f"`{SERVICE_METHOD_HEADER}: {name}` calls `{name}(data, params)`"
                    + (f": {doc}" if doc else ".")
                )
            if results:
                responses["200"] = json_response("The result of the custom method.", union(results))
            if may_be_empty:
                responses["204"] = {"description": "The custom method returned nothing."}
        return self.operation(
            "POST",
            "create" if "create" in self.methods else next(iter(self.custom)),
            " ".join(summary),
            query="create",
            parameters=parameters,
            body=union(requests),
            responses=responses,
        )

    def update(self) -> dict[str, Any]:
        return self.operation(
            "PUT",
            "update",
            "Replace the record: writable fields left out go back to their defaults.",
            query="id",
            with_id=True,
            body=self.bodies.data,
            responses={"200": json_response("The replaced record.", self.bodies.result)},
        )

    def patch(self, *, with_id: bool) -> dict[str, Any]:
        if with_id:
            summary = "Merge the data into the record."
            result: dict[str, Any] = self.bodies.result
        else:
            summary = "Merge the data into every record the query matches, all or nothing."
            result = {"type": "array", "items": self.bodies.result}
        return self.operation(
            "PATCH",
            "patch" if with_id else "patchMany",
            summary,
            query="id" if with_id else "multi",
            with_id=with_id,
            body=self.bodies.patch,
            responses={"200": json_response("The patched record(s).", result)},
        )

    def remove(self, *, with_id: bool) -> dict[str, Any]:
        if isinstance(self.service, AuthenticationService):
            summary = "Log out: revoke the access token sent as `Authorization: Bearer`."
            result = self.bodies.result
        elif with_id:
            summary = "Remove the record and answer it."
            result = self.bodies.result
        else:
            summary = "Remove every record the query matches, all or nothing, and answer them."
            result = {"type": "array", "items": self.bodies.result}
        operation = self.operation(
            "DELETE",
            "remove" if with_id else "removeMany",
            summary,
            query="id" if with_id else "multi",
            with_id=with_id,
            responses={"200": json_response("The removed record(s).", result)},
        )
        if isinstance(self.service, AuthenticationService):
            operation["security"] = [{"jwtAuth": []}]
        return operation

    def operation(
        self,
        verb: str,
        name: str,
        summary: str,
        *,
        query: str,
        with_id: bool = False,
        parameters: list[dict[str, Any]] | None = None,
        body: dict[str, Any] | None = None,
        responses: dict[str, Any],
    ) -> dict[str, Any]:
        """One operation: its parameters, body, responses (errors included) and security."""
        self.auto.method = verb
        operation: dict[str, Any] = {
            "operationId": f"{self.slug}_{name}",
            "summary": summary,
            "tags": [self.route.path],
            "x-feathers-method": name.removesuffix("Many"),
        }
        all_parameters = self.path_parameters(with_id)
        if self.bodies.query is not None:
            all_parameters += self.bodies.query.parameters(query)
        all_parameters += parameters or []
        if all_parameters:
            operation["parameters"] = all_parameters
        if body is not None:
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": body}},
            }
        auth = self.auto.get_auth()
        if auth:
            operation["security"] = auth
        operation["responses"] = {**responses, **error_responses(with_body=body is not None)}
        add_conditional(operation, name, self.service)
        return operation

    def path_parameters(self, with_id: bool) -> list[dict[str, Any]]:
        parameters = [
            {
                "name": segment[1:],
                "in": "path",
                "required": True,
                "schema": {"type": "string", "minLength": 1},
            }
            for segment in self.route.segments
            if segment.startswith(":")
        ]
        if with_id:
            parameters.append(
                {
                    "name": self.id_name,
                    "in": "path",
                    "required": True,
                    "description": "The id of the record.",
                    "schema": self.bodies.id_schema,
                }
            )
        return parameters

    # The summary for typed clients -------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        bodies = self.bodies
        standard = [name for name in self.methods if name not in self.custom]
        custom = {}
        for name, method in self.custom.items():
            data_schema, result_schema, empty = custom_schemas(method)
            if result_schema is None:
                result_schema = {"type": "null"}
            elif empty:
                result_schema = union([result_schema, {"type": "null"}])
            entry: dict[str, Any] = {"data": data_schema, "result": result_schema}
            doc = method_description(method)
            if doc:
                entry["description"] = doc
            custom[name] = entry
        multi = [name for name in ("create", "patch", "remove") if self.multi(name)]
        summary: dict[str, Any] = {"methods": standard}
        if isinstance(self.service, AuthenticationService):
            # Logging out without an id answers one result, not a list of removed records.
            multi = []
            summary["removeWithoutId"] = True
        summary.update(
            {
                "multi": multi,
                "paginated": bodies.paginated,
                "record": bodies.record,
                "data": bodies.data,
                "patch": bodies.patch,
                "id": bodies.id_schema,
                "custom": custom,
            }
        )
        if bodies.query is not None:
            summary["conditions"] = bodies.query.conditions_schema()
            summary["filters"] = bodies.query.filters_schema()
        if bodies.names.get("record"):
            summary["name"] = bodies.names["record"]
        return summary

"""
The OpenAPI operations of one service, read from its public hooks.

    described = ServiceDescriber(registry, request).describe(route)
    described.paths     # {"/todos": {"get": ..., "post": ...}, "/todos/{id}": {...}}
    described.service   # what typed clients need: methods, multi, record, data, query...

A `ModelService` is read through `get_serializer()`, `get_query_fields()`,
`get_selectable_fields()`, `get_operators()`, `get_paginate()`, `allows_multi()` and
`pagination_class`; its records and request bodies become components (private fields are
write-only, so they are in request bodies only). A `Service` has free-form bodies. The
authentication service has bodies of its own. The service instance is built as for a call,
with `swagger_fake_view = True` and empty route values, as drf-spectacular does for views.
"""

from __future__ import annotations

import inspect
import re
import typing
from dataclasses import dataclass, field
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, build_mock_request, resolve_type_hint

from ..server.authentication.service import AuthenticationService
from ..server.params import Params
from ..server.routing import Route
from . import extensions  # noqa: F401 - registers the authentication schemes
from .components import (
    AUTHENTICATION_REQUEST,
    AUTHENTICATION_RESULT,
    error_responses,
)
from .query import QueryFields

__all__ = ["DescribedService", "ServiceDescriber"]

SERVICE_METHOD_HEADER = "X-Service-Method"
_ANY: dict[str, Any] = {}


@dataclass
class DescribedService:
    """The operations of a service, and its summary for typed clients."""

    paths: dict[str, dict[str, Any]] = field(default_factory=dict)
    service: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Bodies:
    record: dict[str, Any]
    #: What the methods answer: a record, or a record narrowed by `$select`.
    result: dict[str, Any]
    data: dict[str, Any]
    patch: dict[str, Any]
    names: dict[str, str | None]
    query: QueryFields | None = None
    paginated: bool = False
    page: dict[str, Any] | None = None
    id_schema: dict[str, Any] = field(default_factory=lambda: {"type": "string"})


class ServiceDescriber:
    """Describe services with drf-spectacular's machinery and component registry."""

    def __init__(self, registry: Any, request: Any = None) -> None:
        self.registry = registry
        self.request = request

    def describe(self, route: Route) -> DescribedService:
        """The paths, operations and client summary of the service at `route`."""
        service = self._instance(route)
        auto = AutoSchema()
        auto.registry = self.registry
        auto.view = service
        auto.path = "/" + route.path
        auto.method = "GET"
        if isinstance(service, AuthenticationService):
            bodies = _authentication_bodies()
        elif hasattr(service, "get_query_fields"):
            bodies = self._model_bodies(route, service, auto)
        else:
            bodies = _free_bodies()
        return _Operations(route, service, auto, bodies).build()

    def _instance(self, route: Route) -> Any:
        service = route.service_class(path=route.path, **route.options)
        placeholders = {segment[1:]: "" for segment in route.segments if segment[0] == ":"}
        service.swagger_fake_view = True
        service.args = ()
        service.kwargs = {}
        service.format_kwarg = None
        service.route = dict(placeholders)
        service.params = Params(route=dict(placeholders), provider="rest")
        service.request = build_mock_request("GET", "/" + route.path, service, self.request)
        return service

    def _model_bodies(self, route: Route, service: Any, auto: AutoSchema) -> _Bodies:
        try:
            return _read_model_service(service, auto)
        except Exception as exc:
            # A `get_queryset` reading the call (the route, the user) cannot run without one:
            # describe the declared queryset instead.
            declared = type(service).queryset
            if declared is None:
                warn(f"{route.path}: could not read the service ({exc}); bodies are free-form.")
                return _free_bodies()
            service.get_queryset = declared.all
            try:
                return _read_model_service(service, auto)
            except Exception as retry:
                warn(f"{route.path}: could not read the service ({retry}); bodies are free-form.")
                return _free_bodies()


def _read_model_service(service: Any, auto: AutoSchema) -> _Bodies:
    serializer = service.get_serializer()
    record = auto.resolve_serializer(serializer, "response")
    data = auto.resolve_serializer(service.get_serializer(), "request")
    patch = auto.resolve_serializer(service.get_serializer(partial=True), "request")
    record_schema = record.schema or {}
    query = QueryFields.of(service, record_schema)
    id_field = service.get_id_field()
    result = {"anyOf": [record.ref, _selection(auto, record, serializer, id_field)]}
    paginated = service.get_paginate() is not None
    page = None
    if paginated:
        paginator = service.pagination_class()
        page = paginator.get_paginated_response_schema({"type": "array", "items": result})
    id_schema = dict(record_schema.get("properties", {}).get(id_field, {}))
    id_schema = {key: value for key, value in id_schema.items() if key not in ("readOnly",)}
    return _Bodies(
        record=record.ref,
        result=result,
        data=data.ref if data.name else {"type": "object"},
        patch=patch.ref if patch.name else {"type": "object"},
        names={"record": record.name, "data": data.name, "patch": patch.name},
        query=query,
        paginated=paginated,
        page=page,
        id_schema=_path_value(id_schema),
    )


def _selection(
    auto: AutoSchema, record: ResolvedComponent, serializer: Any, id_field: str
) -> dict[str, Any]:
    """
    The `<Record>Selection` component: a record answered with `$select`, which holds the
    selected fields and the id only.
    """
    schema = {key: value for key, value in (record.schema or {}).items() if key != "required"}
    if id_field in schema.get("properties", {}):
        schema["required"] = [id_field]
    schema["description"] = (
        f"A {record.name} answered with `$select`: the selected fields and the id."
    )
    component = ResolvedComponent(
        name=f"{record.name}Selection",
        type=ResolvedComponent.SCHEMA,
        object=(type(serializer), "selection"),
        schema=schema,
    )
    auto.registry.register_on_missing(component)
    return component.ref


def _free_bodies() -> _Bodies:
    return _Bodies(record=_ANY, result=_ANY, data=_ANY, patch=_ANY, names={})


def _authentication_bodies() -> _Bodies:
    result = {"$ref": f"#/components/schemas/{AUTHENTICATION_RESULT}"}
    request = {"$ref": f"#/components/schemas/{AUTHENTICATION_REQUEST}"}
    return _Bodies(
        record=result,
        result=result,
        data=request,
        patch=request,
        names={"record": AUTHENTICATION_RESULT, "data": AUTHENTICATION_REQUEST},
    )


def _path_value(schema: dict[str, Any]) -> dict[str, Any]:
    kinds = schema.get("type")
    if isinstance(kinds, list):
        kinds = [kind for kind in kinds if kind != "null"]
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    return schema or {"type": "string"}


class _Operations:
    """The operations of one service, built from its description."""

    def __init__(self, route: Route, service: Any, auto: AutoSchema, bodies: _Bodies) -> None:
        self.route = route
        self.service = service
        self.auto = auto
        self.bodies = bodies
        self.methods = [
            name for name in service.implemented_methods() if name in service.get_methods()
        ]
        self.custom = {
            name: getattr(service, attribute)
            for name, attribute in type(service)._custom_methods.items()
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
        return bool(self.service.allows_multi(method))

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
            result = {"type": "array", "items": bodies.result} if bodies.result else _ANY
        return self.operation(
            "GET",
            "find",
            "Find the records matching the query"
            + (", a page at a time." if bodies.paginated else "."),
            query="find",
            responses={"200": _json("The matching records.", result)},
        )

    def get(self) -> dict[str, Any]:
        return self.operation(
            "GET",
            "get",
            "Get the record with this id (404 unless it also matches the query).",
            query="id",
            with_id=True,
            responses={"200": _json("The record.", self.bodies.result)},
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
            responses["201"] = _json("The created record (records, for an array).", result)
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
                data_schema, result_schema, empty = _custom_schemas(method)
                if data_schema != _ANY or not requests:
                    # Free-form data would make the whole body free-form: the create body
                    # stays documented, and the custom method takes any JSON anyway.
                    requests.append(data_schema)
                if result_schema is not None:
                    results.append(result_schema)
                may_be_empty = may_be_empty or empty
                summary.append(f"`{SERVICE_METHOD_HEADER}: {name}` calls `{name}(data, params)`.")
            if results:
                responses["200"] = _json("The result of the custom method.", _union(results))
            if may_be_empty:
                responses["204"] = {"description": "The custom method returned nothing."}
        return self.operation(
            "POST",
            "create" if "create" in self.methods else "call",
            " ".join(summary),
            query="create",
            parameters=parameters,
            body=_union(requests),
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
            responses={"200": _json("The replaced record.", self.bodies.result)},
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
            responses={"200": _json("The patched record(s).", result)},
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
            responses={"200": _json("The removed record(s).", result)},
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
            data_schema, result_schema, empty = _custom_schemas(method)
            if result_schema is None:
                result_schema = {"type": "null"}
            elif empty:
                result_schema = _union([result_schema, {"type": "null"}])
            custom[name] = {"data": data_schema, "result": result_schema}
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


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _union(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    unique: list[dict[str, Any]] = []
    for schema in schemas:
        if schema not in unique:
            unique.append(schema)
    if any(schema == _ANY for schema in unique):
        return {}
    return unique[0] if len(unique) == 1 else {"anyOf": unique}


def _custom_schemas(method: Any) -> tuple[dict[str, Any], dict[str, Any] | None, bool]:
    """
    A custom method's data and result schemas from its type hints (no result schema when it
    always returns None), and whether it may return nothing (204).
    """
    try:
        hints = typing.get_type_hints(method)
    except Exception:
        # Hints naming what the module only imports for type checking cannot be resolved.
        hints = {}
    parameters = list(inspect.signature(method).parameters)
    data_name = parameters[0] if parameters else None
    data_schema = _hint_schema(hints.get(data_name)) if data_name else _ANY
    returned = hints.get("return", inspect.Signature.empty)
    empty = returned is inspect.Signature.empty or returned is Any or _allows_none(returned)
    if returned is type(None) or returned is None:
        return data_schema, None, True
    return data_schema, _hint_schema(returned), empty


def _hint_schema(hint: Any) -> dict[str, Any]:
    if hint is None or hint is Any or hint is inspect.Signature.empty:
        return _ANY
    try:
        return resolve_type_hint(hint)
    except Exception:
        # drf-spectacular cannot express every hint; the body is then free-form.
        return _ANY


def _allows_none(hint: Any) -> bool:
    return hint is type(None) or type(None) in typing.get_args(hint)

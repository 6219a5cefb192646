"""
TypeScript declarations of the services, for `feathers<ServiceTypes>()`.

    source = typescript_declarations(schema)    # schema: what ServicesSchemaGenerator makes

    // in the client:
    import { feathers } from '@feathersjs/feathers'
    import type { ServiceTypes } from './services'
    const app = feathers<ServiceTypes>()
    const page = await app.service('todos').find({ query: { complete: false } })

Every schema component becomes an interface (read-only fields `readonly`, optional ones `?`).
Each service gets `<Name>Record`, `<Name>Data`, `<Name>Patch`, `<Name>Query` and a
`<Name>Service` interface of its methods (multi overloads where `multi` allows them, custom
methods with their data and result), `<Name>` being its path in PascalCase (`todos` ->
`Todos`, `users/:userId/notes` -> `UsersUserIdNotes`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .generators import SERVICES_EXTENSION

__all__ = ["service_type_name", "to_typescript", "typescript_declarations"]

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_HEADER = """\
// The services of {title}, as the OpenAPI schema describes them.
// Written by `manage.py services_types`: edit the serializers and services, not this file.
import type {{ Id, NullableId, Paginated, Params }} from '@feathersjs/feathers'
"""


def service_type_name(path: str) -> str:
    """The PascalCase name of a service path: `users/:userId/notes` -> `UsersUserIdNotes`."""
    words = re.split(r"[^A-Za-z0-9]+", path)
    name = "".join(word[:1].upper() + word[1:] for word in words if word)
    return name if name and not name[0].isdigit() else f"Service{name}"


def to_typescript(schema: Any, indent: str = "") -> str:
    """A TypeScript type for a JSON schema (OpenAPI 3.1 flavour)."""
    if not isinstance(schema, Mapping) or not schema:
        return "unknown"
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"]) or "never"
    for key, joiner in (("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")):
        if key in schema:
            parts = [_grouped(to_typescript(option, indent)) for option in schema[key]]
            return joiner.join(dict.fromkeys(parts)) or "unknown"
    kinds = schema.get("type")
    if isinstance(kinds, list):
        parts = [to_typescript({**schema, "type": kind}, indent) for kind in kinds]
        return " | ".join(_grouped(part) for part in dict.fromkeys(parts))
    if kinds in ("integer", "number"):
        return "number"
    if kinds == "string":
        return "string"
    if kinds == "boolean":
        return "boolean"
    if kinds == "null":
        return "null"
    if kinds == "array":
        return f"{_grouped(to_typescript(schema.get('items'), indent))}[]"
    if kinds == "object" or "properties" in schema:
        return _object(schema, indent)
    return "unknown"


def _grouped(source: str) -> str:
    return f"({source})" if (" | " in source or " & " in source) and "\n" not in source else source


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _object(schema: Mapping[str, Any], indent: str) -> str:
    properties = schema.get("properties") or {}
    extra = schema.get("additionalProperties", True)
    if not properties:
        if isinstance(extra, Mapping) and extra:
            return f"{{ [key: string]: {to_typescript(extra, indent)} }}"
        return "Record<string, unknown>" if extra is not False else "Record<string, never>"
    return _members(schema, indent)


def _members(schema: Mapping[str, Any], indent: str) -> str:
    required = set(schema.get("required") or ())
    inner = indent + "  "
    lines = ["{"]
    for name, prop in (schema.get("properties") or {}).items():
        key = name if _IDENTIFIER.match(name) else json.dumps(name)
        readonly = "readonly " if isinstance(prop, Mapping) and prop.get("readOnly") else ""
        optional = "" if name in required else "?"
        description = prop.get("description") if isinstance(prop, Mapping) else None
        if description:
            lines.append(f"{inner}/** {_comment(description)} */")
        lines.append(f"{inner}{readonly}{key}{optional}: {to_typescript(prop, inner)}")
    extra = schema.get("additionalProperties", False)
    if extra is True or (isinstance(extra, Mapping) and extra):
        value = "unknown" if extra is True else to_typescript(extra, inner)
        lines.append(f"{inner}[key: string]: {value}")
    lines.append(indent + "}")
    return "\n".join(lines)


def _comment(text: str) -> str:
    return " ".join(str(text).split()).replace("*/", "*\\/")


def _declaration(name: str, schema: Mapping[str, Any]) -> str:
    body = to_typescript(schema)
    description = schema.get("description")
    doc = f"/** {_comment(description)} */\n" if description else ""
    if body.startswith("{\n") and "properties" in schema:
        return f"{doc}export interface {name} {body}\n"
    return f"{doc}export type {name} = {body}\n"


def typescript_declarations(schema: Mapping[str, Any]) -> str:
    """The declarations of every component and service of an OpenAPI schema."""
    title = schema.get("info", {}).get("title") or "the project"
    out = [_HEADER.format(title=title)]
    for name, component in schema.get("components", {}).get("schemas", {}).items():
        out.append(_declaration(name, component))
    services = schema.get(SERVICES_EXTENSION, {})
    entries = []
    for path, summary in services.items():
        name = service_type_name(path)
        out.append(_service(name, summary))
        entries.append(f"  {json.dumps(path)}: {name}Service")
    out.append("/** The services by path: `feathers<ServiceTypes>()`. */")
    out.append("export interface ServiceTypes {\n" + "\n".join(entries) + "\n}\n")
    return "\n".join(out)


def _service(name: str, summary: Mapping[str, Any]) -> str:
    record, data, patch = (to_typescript(summary.get(key)) for key in ("record", "data", "patch"))
    lines = [
        f"export type {name}Record = {record}",
        f"export type {name}Data = {data}",
        f"export type {name}Patch = {patch}",
    ]
    conditions, filters = summary.get("conditions"), summary.get("filters")
    if conditions and filters:
        lines.append(_declaration(f"{name}Conditions", conditions))
        query_members = _members(filters, "").rstrip("}")
        lines.append(
            f"export interface {name}Query extends {name}Conditions {query_members}"
            f"  $or?: {name}Conditions[]\n  $and?: {name}Conditions[]\n}}\n"
        )
    else:
        lines.append(f"export type {name}Query = Record<string, unknown>\n")
    methods = summary.get("methods", [])
    multi = set(summary.get("multi", []))
    found = f"Paginated<{name}Record>" if summary.get("paginated") else f"{name}Record[]"
    params = f"params?: Params<{name}Query>"
    members: list[str] = []
    if "find" in methods:
        members.append(f"find({params}): Promise<{found}>")
    if "get" in methods:
        members.append(f"get(id: Id, {params}): Promise<{name}Record>")
    if "create" in methods:
        if "create" in multi:
            members.append(f"create(data: {name}Data[], {params}): Promise<{name}Record[]>")
        members.append(f"create(data: {name}Data, {params}): Promise<{name}Record>")
    if "update" in methods:
        members.append(f"update(id: Id, data: {name}Data, {params}): Promise<{name}Record>")
    if "patch" in methods:
        members.append(f"patch(id: Id, data: {name}Patch, {params}): Promise<{name}Record>")
        if "patch" in multi:
            members.append(f"patch(id: null, data: {name}Patch, {params}): Promise<{name}Record[]>")
            members.append(
                f"patch(id: NullableId, data: {name}Patch, {params}): "
                f"Promise<{name}Record | {name}Record[]>"
            )
    if "remove" in methods and summary.get("removeWithoutId"):
        members.append(f"remove(id: NullableId, {params}): Promise<{name}Record>")
    elif "remove" in methods:
        members.append(f"remove(id: Id, {params}): Promise<{name}Record>")
        if "remove" in multi:
            members.append(f"remove(id: null, {params}): Promise<{name}Record[]>")
            members.append(
                f"remove(id: NullableId, {params}): Promise<{name}Record | {name}Record[]>"
            )
    for method, custom in summary.get("custom", {}).items():
        key = method if _IDENTIFIER.match(method) else json.dumps(method)
        if custom.get("description"):
            members.append(f"/** {_comment(custom['description'])} */")
        members.append(
            f"{key}(data: {to_typescript(custom.get('data'), '  ')}, {params}): "
            f"Promise<{to_typescript(custom.get('result'), '  ')}>"
        )
    lines.append(f"export interface {name}Service {{")
    lines.extend(f"  {member}" for member in members)
    lines.append("}\n")
    return "\n".join(lines)

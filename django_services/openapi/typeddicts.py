"""
Python `TypedDict`s of the services, for code calling them with the client.

    source = python_typeddicts(schema)    # schema: what ServicesSchemaGenerator makes

    # in the client:
    from myproject.services_types import TodosData, TodosPage, TodosQuery

    query: TodosQuery = {"complete": False, "$sort": {"id": -1}}
    page: TodosPage = app.service("todos").find({"query": query})

Every schema component becomes a `TypedDict` (fields not always present are not required);
each service gets `<Name>Record`, `<Name>Data`, `<Name>Patch`, `<Name>Query` (and
`<Name>Page` when paginated), named as in the TypeScript declarations. Query keys such as
`$limit` are not identifiers, so query types use the functional `TypedDict` syntax.
"""

from __future__ import annotations

import json
import keyword
import re
import textwrap
from collections.abc import Mapping
from typing import Any

from .generators import SERVICES_EXTENSION
from .typescript import service_type_name

__all__ = ["python_typeddicts", "to_python"]

_HEADER = '''\
"""
The services of {title}, as the OpenAPI schema describes them.

Written by `manage.py services_types`: edit the serializers and services, not this file.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict
'''


def to_python(schema: Any) -> str:
    """A Python type expression for a JSON schema (OpenAPI 3.1 flavour)."""
    if not isinstance(schema, Mapping) or not schema:
        return "Any"
    if "$ref" in schema:
        return _class_name(schema["$ref"].rsplit("/", 1)[-1])
    if "const" in schema:
        return f"Literal[{_literal(schema['const'])}]"
    if "enum" in schema:
        values = [value for value in schema["enum"] if value is not None]
        literal = f"Literal[{', '.join(_literal(value) for value in values)}]" if values else ""
        parts = [literal] if literal else []
        if None in schema["enum"]:
            parts.append("None")
        return " | ".join(parts) or "Any"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return _union(to_python(option) for option in schema[key])
    if "allOf" in schema:
        return "dict[str, Any]"
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return _union(to_python({**schema, "type": kind}) for kind in kinds)
    simple = {"integer": "int", "number": "float", "string": "str", "boolean": "bool"}
    if kinds in simple:
        return simple[kinds]
    if kinds == "null":
        return "None"
    if kinds == "array":
        return f"list[{to_python(schema.get('items'))}]"
    if kinds == "object" or "properties" in schema:
        return "dict[str, Any]"
    return "Any"


def _union(parts: Any) -> str:
    unique = list(dict.fromkeys(parts))
    return "Any" if "Any" in unique else " | ".join(unique)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return repr(value)
    return json.dumps(value) if isinstance(value, (str, int, float)) else repr(json.dumps(value))


def _class_name(name: str) -> str:
    name = re.sub(r"\W", "_", name)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = f"_{name}"
    return name


def _is_identifier(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def _typeddict(name: str, schema: Mapping[str, Any]) -> str:
    """A `TypedDict` for an object schema: class syntax, or functional when keys demand it."""
    properties = schema.get("properties") or {}
    if schema.get("type") not in ("object", None) or not properties:
        return f"{name} = {to_python(schema)}\n"
    required = set(schema.get("required") or ())
    if not all(_is_identifier(key) for key in properties):
        items = {key: to_python(prop) for key, prop in properties.items()}
        return _functional(name, items, total=required >= set(properties))
    docstring = schema.get("description")
    doc = f"{_docstring(docstring)}\n" if docstring else ""

    def fields(names: list[str]) -> str:
        return "".join(f"    {key}: {to_python(properties[key])}\n" for key in names)

    always = [key for key in properties if key in required]
    sometimes = [key for key in properties if key not in required]
    if always and sometimes:
        base = f"_{name}Required"
        return (
            f"class {base}(TypedDict):\n{fields(always)}\n\n"
            f"class {name}({base}, total=False):\n{doc}{fields(sometimes)}"
        )
    total = "" if always else ", total=False"
    return f"class {name}(TypedDict{total}):\n{doc}{fields(always or sometimes)}"


def _typeddict_of(name: str, items: Mapping[str, str]) -> str:
    """A `TypedDict` whose keys are all optional: class syntax where the keys allow it."""
    if all(_is_identifier(key) for key in items):
        body = "".join(f"    {key}: {value}\n" for key, value in items.items())
        return f"class {name}(TypedDict, total=False):\n{body}"
    return _functional(name, items, total=False)


def _functional(name: str, items: Mapping[str, str], *, total: bool) -> str:
    """The functional `TypedDict` syntax, laid out as `ruff format` would."""
    body = "".join(f"        {_quoted(key)}: {_quoted(value)},\n" for key, value in items.items())
    tail = "" if total else "    total=False,\n"
    return f"{name} = TypedDict(\n    {_quoted(name)},\n    {{\n{body}    }},\n{tail})\n"


def _quoted(text: str) -> str:
    """A string literal as `ruff format` writes it: double quotes unless the text holds some."""
    if '"' in text and "'" not in text:
        return f"'{text}'"
    return json.dumps(text)


def _docstring(text: str) -> str:
    """A class docstring, wrapped to fit the line length of generated code."""
    words = " ".join(str(text).split()).replace('"""', "'''").replace("\\", "\\\\")
    lines = textwrap.wrap(words, width=88)
    if len(lines) == 1 and len(lines[0]) <= 82:
        return f'    """{lines[0]}"""\n'
    body = "".join(f"    {line}\n" for line in lines)
    return f'    """\n{body}    """\n'


def python_typeddicts(schema: Mapping[str, Any]) -> str:
    """The `TypedDict`s of every component and service of an OpenAPI schema."""
    title = schema.get("info", {}).get("title") or "the project"
    out = [_HEADER.format(title=title)]
    for name, component in schema.get("components", {}).get("schemas", {}).items():
        out.append(_typeddict(_class_name(name), component))
    for path, summary in schema.get(SERVICES_EXTENSION, {}).items():
        out.append(_service(service_type_name(path), summary))
    return "\n\n".join(part.rstrip("\n") + "\n" for part in out)


def _service(name: str, summary: Mapping[str, Any]) -> str:
    aliases = [
        f"{name}Record = {to_python(summary.get('record'))}",
        f"{name}Data = {to_python(summary.get('data'))}",
        f"{name}Patch = {to_python(summary.get('patch'))}",
    ]
    lines: list[str] = []
    conditions, filters = summary.get("conditions"), summary.get("filters")
    if conditions and filters:
        keys: dict[str, str] = {}
        for field, prop in conditions.get("properties", {}).items():
            value, operators = prop["anyOf"]
            operators_name = f"{name}{_class_name(field[:1].upper() + field[1:])}Operators"
            items = {key: to_python(item) for key, item in operators.get("properties", {}).items()}
            lines.append(_typeddict_of(operators_name, items))
            keys[field] = f"{to_python(value)} | {operators_name}"
        lines.append(_typeddict_of(f"{name}Conditions", keys))
        for key, prop in filters.get("properties", {}).items():
            keys[key] = "dict[str, Literal[1, -1]]" if key == "$sort" else to_python(prop)
        keys["$or"] = f"list[{name}Conditions]"
        keys["$and"] = f"list[{name}Conditions]"
        lines.append(_typeddict_of(f"{name}Query", keys))
    else:
        aliases.append(f"{name}Query = dict[str, Any]")
    if summary.get("paginated"):
        lines.append(
            f"class {name}Page(TypedDict):\n"
            f"    total: int\n    limit: int | None\n    skip: int\n"
            f"    data: list[{name}Record]\n"
        )
    blocks = ["\n".join(aliases), *(line.strip("\n") for line in lines)]
    return "\n\n\n".join(blocks) + "\n"

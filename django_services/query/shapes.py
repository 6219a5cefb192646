"""
The shapes a parsed query value takes: an object, a list, or an object standing for a list.

    list_items({"0": "a", "1": "b"})     # ["a", "b"], as qs parses `a[0]=a&a[1]=b`
    is_container("text")                 # False

Dicts and strings, nearly every value, are recognised without the `Mapping` ABC check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeGuard

__all__ = ["is_container", "is_mapping", "list_items"]

_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """`isinstance(value, Mapping)`, without the ABC check for the usual dicts and strings."""
    kind = type(value)
    return kind is dict or (kind is not str and isinstance(value, Mapping))


def is_container(value: Any) -> bool:
    """Whether `value` is a mapping, a list or a tuple (quickly for dicts and strings)."""
    kind = type(value)
    if kind is str:
        return False
    return kind is dict or kind is list or isinstance(value, (Mapping, list, tuple))


def list_items(value: Any) -> list[Any] | None:
    """A list, or an object whose keys are all list indexes (`{"0": a, "1": b}`), as a list."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if is_mapping(value) and value:
        keys = [str(key) for key in value]
        if all(_INDEX.fullmatch(key) for key in keys):
            # Canonical integers sort by length, then digits: no int() of a thousand digits.
            ordered = sorted(
                zip(keys, value.values(), strict=True), key=lambda item: (len(item[0]), item[0])
            )
            return [item for _, item in ordered]
    return None

"""
How Node's `qs` (6.14) parses a query string, with Express's options, step by step.

    pairs = split_pairs("a[b]=1&a[c]=2")     # [("a[b]", "1"), ("a[c]", "2")]

`codec.parse` drives these steps and enforces the limits; they are kept apart because `qs`
has many corners (merging a key given both with and without brackets, sparse indexes, keys with
stray brackets, malformed percent-escapes) and every one of them is matched here on purpose.
JavaScript arrays are Python lists in which `HOLE` marks an index never assigned.
"""

from __future__ import annotations

import itertools
import operator
import re
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

HOLE: Any = type("Hole", (), {"__repr__": lambda self: "HOLE"})()

# A bracket group as `qs` sees one: `[`, anything but brackets, `]`.
_GROUP = re.compile(r"\[[^\[\]]*\]")
_MALFORMED_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ENCODED_BRACKET = re.compile(r"%5[BbDd]")
_CANONICAL_INTEGER = re.compile(r"0|[1-9][0-9]*")
# A JavaScript object lists the keys that are array indexes (below 2**32 - 1) first.
_MAX_OBJECT_INDEX = 2**32 - 2


def decode_component(text: str) -> str:
    """`qs`'s decoder: `+` is a space, then `decodeURIComponent`, the text as is if that fails."""
    text = text.replace("+", " ")
    if "%" not in text or _MALFORMED_PERCENT.search(text):
        return text
    try:
        return urllib.parse.unquote(text, errors="strict")
    except UnicodeDecodeError:
        return text


def split_parts(query_string: str) -> list[str]:
    """The non-empty `&`-separated parts, `%5B`/`%5D` already read as brackets."""
    text = _ENCODED_BRACKET.sub(lambda match: "[" if match[0][2] in "Bb" else "]", query_string)
    return [part for part in text.split("&") if part]


def split_pair(part: str) -> tuple[str, str]:
    """A part's decoded key and value; `]=` ends the key before a plain `=` does."""
    closing = part.find("]=")
    split = part.find("=") if closing == -1 else closing + 1
    if split == -1:
        return decode_component(part), ""
    return decode_component(part[:split]), decode_component(part[split + 1 :])


def key_segments(key: str) -> tuple[str, list[str]]:
    """The name before the first bracket group, and every group (`"[b]"`) after it."""
    first = _GROUP.search(key)
    if first is None:
        return key, []
    return key[: first.start()], _GROUP.findall(key)


def array_index(segment: str) -> int | None:
    """The index a bracketed segment (`"[3]"`) stands for, if `qs` reads it as one."""
    if not _CANONICAL_INTEGER.fullmatch(segment):
        return None
    index = int(segment)
    # `String(parseInt(segment))` must give the segment back.
    return index if index < 10**21 and float(index) == index else None


def object_key_order(key: str) -> tuple[int, int]:
    """Sort key putting keys in the order a JavaScript object lists them."""
    if _CANONICAL_INTEGER.fullmatch(key) and int(key) <= _MAX_OBJECT_INDEX:
        return (0, int(key))
    return (1, 0)


def build(name: str, groups: list[str], value: Any, check_index: Callable[[int], None]) -> Any:
    """
    The object one key stands for (`qs`'s parseObject): `a[b][]` with `v` is `{"a": {"b": [v]}}`.

    `check_index` is called with every list index the key uses, before the list is built.
    """
    leaf = value
    for segment in reversed([name, *groups] if name else groups):
        if segment == "[]":
            leaf = list(leaf) if isinstance(leaf, list) else [leaf]
            continue
        bracketed = segment.startswith("[") and segment.endswith("]")
        inner = segment[1:-1] if bracketed else segment
        index = array_index(inner) if bracketed else None
        if index is not None:
            check_index(index)
            leaf = [HOLE] * index + [leaf]
        elif inner == "__proto__":
            leaf = {}
        else:
            leaf = {inner: leaf}
    return leaf


def merge(target: Any, source: Any) -> Any:
    """`qs`'s merge of one key's object into the result so far."""
    if source == "" or source is HOLE:
        return target
    if isinstance(source, str):
        if isinstance(target, list):
            target.append(source)
            return target
        if isinstance(target, dict):
            # JavaScript ignores a `true` assigned to `__proto__`.
            if source != "__proto__":
                target[source] = True
            return target
        return [target, source]
    if not isinstance(target, (dict, list)):
        return [target, *source] if isinstance(source, list) else [target, source]
    if isinstance(target, list) and isinstance(source, list):
        for index in _filled_indexes(source):
            item = source[index]
            if index < len(target) and target[index] is not HOLE:
                if isinstance(target[index], (dict, list)) and isinstance(item, (dict, list)):
                    target[index] = merge(target[index], item)
                else:
                    target.append(item)
            else:
                target.extend([HOLE] * (index + 1 - len(target)))
                target[index] = item
        return target
    merged = _as_object(target) if isinstance(target, list) else target
    items = _as_object(source).items() if isinstance(source, list) else source.items()
    for key, value in items:
        merged[key] = merge(merged[key], value) if key in merged else value
    return merged


def compact(value: Any, check_length: Callable[[int], None]) -> Any:
    """Drop the holes of every list (`qs`'s compact), checking each final length."""
    if isinstance(value, dict):
        return {key: compact(item, check_length) for key, item in value.items()}
    if isinstance(value, list):
        items = [compact(item, check_length) for item in value if item is not HOLE]
        check_length(len(items))
        return items
    return value


def _filled_indexes(items: list[Any]) -> Iterator[int]:
    # A key's own list (`a[7]`) is holes but for its last item: find the items without a
    # Python-level loop over the holes.
    if items and items[-1] is not HOLE and items.count(HOLE) == len(items) - 1:
        return iter((len(items) - 1,))
    return itertools.compress(
        range(len(items)), map(operator.is_not, items, itertools.repeat(HOLE))
    )


def _as_object(items: list[Any]) -> dict[str, Any]:
    return {str(index): item for index, item in enumerate(items) if item is not HOLE}

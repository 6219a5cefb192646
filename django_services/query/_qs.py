"""
How Node's `qs` (6.16, the version Express 4.22 resolves) parses a query string, with Express's
options, step by step.

    split_pair("a[b]=1")              # ("a[b]", "1")
    key_segments("a[b[c]]x[d]")       # ("a", ["[b[c]]", "[d]"])

`codec.parse` drives these steps and enforces the limits; they are kept apart because `qs`
has many corners (bracket groups that nest or never close, a key given both with and without
brackets, sparse indexes, malformed percent-escapes) and every one of them is matched here on
purpose. JavaScript arrays are Python lists in which `HOLE` marks an index never assigned. Where
two keys give one path values of different shapes, `qs` (`strictMerge`) keeps both in a list.
"""

from __future__ import annotations

import decimal
import itertools
import operator
import re
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

HOLE: Any = type("Hole", (), {"__repr__": lambda self: "HOLE"})()

_BRACKET = re.compile(r"[\[\]]")
_MALFORMED_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ENCODED_BRACKET = re.compile(r"%5[BbDd]")
_CANONICAL_INTEGER = re.compile(r"0|[1-9][0-9]*")
# A name, then bracketed names, with nothing between them: `a[b][c]`.
_PLAIN_OBJECT_KEY = re.compile(r"([^\[\]]+)((?:\[[^\[\]]+\])*)")
# A JavaScript object lists the keys that are array indexes (below 2**32 - 1) first.
_MAX_OBJECT_INDEX = 2**32 - 2
# `String(number)` switches to exponent notation from 1e21: no index is written with more digits.
_MAX_INDEX_DIGITS = 21


class _ConflictList(list):
    """The list `qs` makes of an object and a string given at the same path."""


class _ConflictObject(dict):
    """A conflict list that became an object: a string merged into it takes the next index."""

    def __init__(self, items: dict[str, Any], last_index: float) -> None:
        super().__init__(items)
        self.last_index = last_index


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
    """
    The name before the first `[`, and every bracket group after it (`"[b]"`), however many.

    A group ends at the `]` that balances its `[` (`a[b[c]]` has the one group `[b[c]]`);
    text between groups is dropped; a group that never closes runs to the end of the key and
    is wrapped in one more pair of brackets (`a[b` has the group `[[b]`).
    """
    first = start = key.find("[")
    if first == -1:
        return key, []
    groups = []
    while start != -1:
        level, close = 0, -1
        for match in _BRACKET.finditer(key, start):
            level += 1 if match[0] == "[" else -1
            if level == 0:
                close = match.start()
                break
        if close == -1:
            groups.append(f"[{key[start:]}]")
            break
        groups.append(key[start : close + 1])
        start = key.find("[", close + 1)
    return key[:first], groups


def plain_objects(values: dict[str, Any], depth: int) -> dict[str, Any] | None:
    """
    The result of the keys at once, when every key is a plain object path: a name, then
    bracketed names (`$sort[age]`, `age[$gt]`), none of them empty, an integer or `__proto__`,
    and no key's path running into another's value. None otherwise, and for a key deeper
    than `depth`: the general steps (`key_segments`, `build`, `merge`, `compact`) then decide.

    For such keys those steps make nested objects in the order the keys came, which is what
    this does without them: most query strings take this way.
    """
    result: dict[str, Any] = {}
    for key, value in values.items():
        match = _PLAIN_OBJECT_KEY.fullmatch(key)
        if match is None:
            return None
        name, brackets = match.groups()
        path = [name, *brackets[1:-1].split("][")] if brackets else [name]
        if len(path) - 1 > depth:
            return None
        for segment in path:
            if segment == "__proto__" or _CANONICAL_INTEGER.fullmatch(segment):
                return None
        node = result
        for segment in path[:-1]:
            child = node.get(segment)
            if child is None:
                child = node[segment] = {}
            elif type(child) is not dict:
                return None
            node = child
        if path[-1] in node:
            return None
        node[path[-1]] = value
    return result


def array_index(segment: str) -> int | None:
    """The index a bracketed segment's content (`"3"`) stands for, if `qs` reads it as one."""
    number = _js_index(segment)
    return None if number is None else int(number)


def object_key_order(key: str) -> tuple[int, int]:
    """Sort key putting keys in the order a JavaScript object lists them."""
    if len(key) <= 10 and _CANONICAL_INTEGER.fullmatch(key) and int(key) <= _MAX_OBJECT_INDEX:
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


def merge(target: Any, source: Any, check_length: Callable[[int], None]) -> Any:
    """
    `qs`'s merge of one key's object into the result so far (`strictMerge` on).

    `check_length` is called with the length of every list merging makes longer: where it
    exceeds the list limit, `qs` would turn the list into an object.
    """
    if source == "" or source is HOLE:
        return target
    if isinstance(source, str):
        if isinstance(target, list):
            check_length(len(target) + 1)
            target.append(source)
            return target
        if isinstance(target, _ConflictObject):
            target.last_index += 1  # a JavaScript number: it stops growing past 2**53
            target[_js_integer_string(target.last_index)] = source
            return target
        check_length(2)
        return _ConflictList([target, source]) if isinstance(target, dict) else [target, source]
    if not isinstance(target, (dict, list)):
        combined = [target, *source] if isinstance(source, list) else [target, source]
        check_length(len(combined))
        return combined
    if isinstance(target, list) and isinstance(source, list):
        for index in _filled_indexes(source):
            item = source[index]
            if index < len(target) and target[index] is not HOLE:
                if isinstance(target[index], (dict, list)) and isinstance(item, (dict, list)):
                    target[index] = merge(target[index], item, check_length)
                else:
                    target.append(item)
            else:
                target.extend([HOLE] * (index + 1 - len(target)))
                target[index] = item
        check_length(len(target))
        return target
    merged: dict[str, Any]
    if isinstance(target, _ConflictList):
        merged = _ConflictObject(_as_object(target), len(target) - 1)
    elif isinstance(target, list):
        merged = _as_object(target)
    else:
        merged = target
    items = _as_object(source).items() if isinstance(source, list) else source.items()
    for key, value in items:
        merged[key] = merge(merged[key], value, check_length) if key in merged else value
        if isinstance(merged, _ConflictObject):
            key_index = _js_index(key)
            if key_index is not None and key_index > merged.last_index:
                merged.last_index = key_index
    return merged


def compact(value: Any, check_length: Callable[[int], None]) -> Any:
    """
    Drop the holes of every list (`qs`'s compact), checking each final length, and order the
    keys of every object as JavaScript lists them.
    """
    if isinstance(value, dict):
        return {
            key: compact(value[key], check_length) for key in sorted(value, key=object_key_order)
        }
    if isinstance(value, list):
        items = [compact(item, check_length) for item in value if item is not HOLE]
        check_length(len(items))
        return items
    return value


def _js_index(text: str) -> float | None:
    """`parseInt(text, 10)` when `String()` of it gives `text` back (and it is not negative)."""
    if len(text) > _MAX_INDEX_DIGITS or not _CANONICAL_INTEGER.fullmatch(text):
        return None
    number = float(int(text))
    return number if number < 1e21 and _js_integer_string(number) == text else None


def _js_integer_string(number: float) -> str:
    """`String(number)` for a whole number below 1e21: the shortest digits, then zeros."""
    return str(int(decimal.Decimal(repr(number))))


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

"""
The offset a service event carries to the sockets: which logged events its process had sent.

    seen = Offsets(top=12, missing={11})
    seen.encode()                     # "12~11"
    Offsets.decode("12~11") == seen
    10 in seen, 11 in seen            # True, False

Logged events are numbered by their id in the event log, but on a database with concurrent
writers a lower id can commit after a higher one, so "the last id received" does not say what a
socket missed. An offset names a set instead: every id up to `top` but the `missing` ones. A
process sends each event with the set of the events it had sent before and this one, so a
socket that received an event with offset `S` has received every event of `S` it may see, and
none outside it. A reconnect that sends back `S` is owed the events of the log not in `S`.

The text form is socket.io's opaque offset string: `top`, then `~` and the missing ids as
comma-separated ids and `first-last` ranges when there are any: `"12"`, `"40~31,35-37"`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

__all__ = ["MAX_MISSING", "Offsets"]

#: The missing ids an offset names at most: a client sending more is not recovered.
MAX_MISSING = 1000

_TEXT = re.compile(r"(0|[1-9]\d{0,17})(?:~([0-9,\-]{1,20000}))?")
_ITEM = re.compile(r"([1-9]\d{0,17})(?:-([1-9]\d{0,17}))?")


@dataclasses.dataclass(frozen=True)
class Offsets:
    """The logged events up to `top`, but `missing`: what a socket has been sent."""

    top: int = 0
    missing: frozenset[int] = frozenset()

    def __contains__(self, offset: object) -> bool:
        return isinstance(offset, int) and 0 < offset <= self.top and offset not in self.missing

    def encode(self) -> str:
        """The offset string the events carry."""
        if not self.missing:
            return str(self.top)
        return f"{self.top}~{','.join(_ranges(sorted(self.missing)))}"

    @classmethod
    def decode(cls, text: object) -> Offsets | None:
        """The offsets `encode()` wrote, or None for anything else (a client's own string)."""
        if not isinstance(text, str):
            return None
        match = _TEXT.fullmatch(text)
        if match is None:
            return None
        top, listed = int(match.group(1)), match.group(2)
        missing: set[int] = set()
        for item in listed.split(",") if listed else ():
            found = _ITEM.fullmatch(item)
            if found is None:
                return None
            first = int(found.group(1))
            last = int(found.group(2) or first)
            if not first <= last <= top or len(missing) + last - first >= MAX_MISSING:
                return None
            missing.update(range(first, last + 1))
        return cls(top, frozenset(missing))

    def with_prefix_of(self, other: Offsets, bound: int) -> Offsets:
        """These offsets and those of `other` up to `bound` (at most `other.top`)."""
        kept = {offset for offset in self.missing if not (offset <= bound and offset in other)}
        # Above our top and up to `bound`, what `other` misses is missing.
        kept.update(offset for offset in other.missing if self.top < offset <= bound)
        return Offsets(max(self.top, bound), frozenset(kept))

    def union(self, other: Offsets) -> Offsets:
        """Both sets of offsets."""
        return self.with_prefix_of(other, other.top)


def _ranges(offsets: list[int]) -> Iterator[str]:
    """`[3, 4, 5, 9]` as `"3-5"`, `"9"`."""
    start = previous = offsets[0]
    for offset in [*offsets[1:], None]:
        if offset is not None and offset == previous + 1:
            previous = offset
            continue
        yield str(start) if start == previous else f"{start}-{previous}"
        if offset is not None:
            start = previous = offset

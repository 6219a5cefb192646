"""
What a client owed and what it got: the events of every committed record against those it
received.

    tally = Tally.of(deployment.records(), listener.events())
    tally.written, tally.delivered, tally.lost, tally.duplicated, tally.disordered, tally.phantom
    assert tally.complete, tally.report()

A person `{id, age}` committed with age `n` owes `created` (age 0) then `patched` with ages 1
to `n`, in that order. The barrier is left out: every client waited for it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .deployment import BARRIER

Key = tuple[int, str, Any]


def owed(records: Mapping[int, int]) -> dict[int, list[Key]]:
    """Per record id, the events it owes every client, in commit order."""
    return {
        id: [(id, "created", 0), *((id, "patched", age) for age in range(1, (last or 0) + 1))]
        for id, last in records.items()
    }


@dataclasses.dataclass(frozen=True)
class Tally:
    """One client's account: `written` events owed, and what became of them."""

    #: Events committed (the writer's, read from the database).
    written: int
    #: Of those, the events received at least once.
    delivered: int
    #: Of those, the events never received.
    lost: int
    #: Receipts beyond the first of an event.
    duplicated: int
    #: Records whose events came in another order than their commits.
    disordered: int
    #: Events received that no committed write caused.
    phantom: int
    #: The first few problems, for a failure message.
    examples: tuple[str, ...] = ()

    @classmethod
    def of(cls, records: Mapping[int, int], received: Sequence[tuple[str, Any]]) -> Tally:
        """The account of a client that received `received` (`(event, data)`, in order)."""
        owing = owed(records)
        expected = {key for keys in owing.values() for key in keys}
        keys: list[Key] = [
            (data.get("id"), event, data.get("age"))
            for event, data in received
            if isinstance(data, Mapping) and data.get("name") != BARRIER
        ]
        counts = Counter(keys)
        examples: list[str] = []
        delivered = len(expected & counts.keys())
        duplicated = sum(count - 1 for count in counts.values())
        phantom = sum(count for key, count in counts.items() if key not in expected)
        examples += [f"never received: {key}" for key in sorted(expected - counts.keys())[:5]]
        examples += [f"received {n} times: {key}" for key, n in counts.items() if n > 1][:5]
        examples += [f"no such write: {key}" for key in counts if key not in expected][:5]
        disordered = 0
        for id, sequence in owing.items():
            came = list(dict.fromkeys(key for key in keys if key[0] == id and key in expected))
            if came != [key for key in sequence if key in counts]:
                disordered += 1
                if disordered <= 5:
                    examples.append(f"record {id}: {came}")
        return cls(
            written=len(expected),
            delivered=delivered,
            lost=len(expected) - delivered,
            duplicated=duplicated,
            disordered=disordered,
            phantom=phantom,
            examples=tuple(examples),
        )

    @property
    def complete(self) -> bool:
        """Every event owed, exactly once, in commit order for each record, and nothing else."""
        return self.delivered == self.written and not (
            self.duplicated or self.disordered or self.phantom
        )

    def report(self) -> str:
        counts = ", ".join(
            f"{name} {getattr(self, name)}"
            for name in ("written", "delivered", "lost", "duplicated", "disordered", "phantom")
        )
        return "\n".join([counts, *self.examples])

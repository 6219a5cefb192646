"""
`codec.parse` and `codec.stringify` against the real Node `qs`, the version Express resolves.

Thousands of seeded cases (query strings full of brackets, indexes, percent-escapes and
repeated keys; nested values to encode) go through one node process in a single batch. `qs`
parses each string twice: with Express's options (`allowPrototypes: true, arrayLimit: 1000`),
and with the same options plus `throwOnLimitExceeded` and `strictDepth`, which tells whether a
limit changed the result. Where no limit was hit, our result must be exactly Express's, keys in
the same order; where one was, ours must be a 400 BadRequest naming it (CONTRACT §2).
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from django_services.errors import BadRequest
from django_services.query import codec

from .feathers_js import NODE_DIR, tools

pytestmark = pytest.mark.interop

SEED = 20240501
RANDOM_QUERY_STRINGS = 2500
RANDOM_VALUES = 1000

# Reads {"parse": [...], "stringify": [...]} on stdin, answers the same keys on stdout, with
# the `qs` of the Express that @feathersjs/express depends on.
QS_RUNNER = r"""
const path = require('path');
const packageDir = (name, from) => path.dirname(require.resolve(`${name}/package.json`, from));
const feathersExpress = packageDir('@feathersjs/express');
const express = packageDir('express', { paths: [feathersExpress] });
const qsMain = require.resolve('qs', { paths: [express] });
const qs = require(qsMain);
const options = { allowPrototypes: true, arrayLimit: 1000 };
const strict = { ...options, throwOnLimitExceeded: true, strictDepth: true };
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const parse = input.parse.map((text) => {
  let limited = false;
  try {
    qs.parse(text, strict);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    limited = true;
  }
  return { value: qs.parse(text, options), limited };
});
const stringify = input.stringify.map((value) => qs.stringify(value));
const version = require(path.join(path.dirname(path.dirname(qsMain)), 'package.json')).version;
process.stdout.write(JSON.stringify({ version, parse, stringify }));
"""


def run_qs(parse: list[str], stringify: list[Any]) -> dict[str, Any]:
    """Run a batch of cases through Express's `qs` in one node process."""
    node, _ = tools()
    completed = subprocess.run(
        [node, "-e", QS_RUNNER],
        cwd=NODE_DIR,
        input=json.dumps({"parse": parse, "stringify": stringify}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def batch(node_packages: Path) -> dict[str, Any]:
    """The seeded cases, and what `qs` answers for them (one node process for the module)."""
    cases = Cases(SEED)
    strings = limit_cases() + [cases.query_string() for _ in range(RANDOM_QUERY_STRINGS)]
    values = [cases.query() for _ in range(RANDOM_VALUES)]
    return {"strings": strings, "values": values, **run_qs(strings, values)}


# Generators ------------------------------------------------------------------------------

NAMES = [
    "a", "b", "name", "$in", "$or", "$sort", "$limit", "0", "1", "7", "__proto__",
    "constructor", "toString", "hasOwnProperty", "", " ", "\u00e9", "\u2713", "a.b", "x y",
    "%24in", "%5B", "%5d", "%", "%zz", "%E2%9C%93", "+", "a+b", "%00", "\U0001f600",
]  # fmt: skip
INDEXES = [
    "0", "1", "2", "5", "998", "999", "1000", "01", "-1", "-0", "1e3", "0x1", " 1", "1.5",
    "100000000000000000000", "1000000000000000000000", "4294967294", "4294967295",
    "9007199254740993",
]  # fmt: skip
STRAYS = ["[", "]", "]]", "[[", "x", "[]]", "[[]", "=", "]="]
VALUES = [
    "", "1", "x", "a+b", "%20", "%", "%zz", "%FF", "%E2%9C%93", "%ED%A0%80", "%C0%80",
    "=", "]=", "a=b", "\u00e9", "%00", "true", "-1", "1e308", "[", "%5B%5D", "%2B", "+%2B+",
]  # fmt: skip
CHARACTERS = "ab01[]]=&%5BDd+$_.-~\u00e9 \x00\t"


class Cases(random.Random):
    """Seeded generators of query strings and of values to encode."""

    def key(self) -> str:
        parts = [self.choice(NAMES)] if self.random() < 0.9 else []
        for _ in range(self.choice([0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6])):
            roll = self.random()
            if roll < 0.35:
                parts.append(f"[{self.choice(INDEXES)}]")
            elif roll < 0.45:
                parts.append("[]")
            elif roll < 0.55:
                parts.append(f"[{self.choice(NAMES)}[{self.choice(NAMES)}]]")
            elif roll < 0.65:
                parts.append(self.choice(STRAYS))
            else:
                parts.append(f"[{self.choice(NAMES)}]")
        key = "".join(parts)
        if self.random() < 0.15:
            key = key.replace("[", self.choice(["%5B", "%5b"])).replace("]", "%5D")
        return key

    def part(self, keys: list[str]) -> str:
        key = self.choice(keys) if keys and self.random() < 0.4 else self.key()
        keys.append(key)
        roll = self.random()
        if roll < 0.1:
            return key
        value = self.choice(VALUES) if roll < 0.8 else self.raw(6)
        return f"{key}={value}"

    def raw(self, length: int) -> str:
        return "".join(self.choice(CHARACTERS) for _ in range(self.randint(0, length)))

    def query_string(self) -> str:
        if self.random() < 0.15:
            return self.raw(30)
        keys: list[str] = []
        parts = [self.part(keys) for _ in range(self.randint(1, 10))]
        if self.random() < 0.1:
            parts.insert(self.randint(0, len(parts)), "")
        return "&".join(parts)

    def leaf(self) -> Any:
        return self.choice(
            [
                lambda: self.choice(NAMES + VALUES),
                lambda: self.raw(8),
                lambda: self.randint(-(2**53), 2**53),
                lambda: self.choice([0, -1, 1, 2**31, 10**15]),
                lambda: self.choice(
                    [1.5, -0.0, 1e21, 1e-7, 123456789012345680000.0, 0.1 + 0.2, 5e-324]
                ),
                lambda: (self.random() - 0.5) * 10 ** self.randint(-10, 30),
                lambda: self.choice([True, False, None]),
                lambda: self.choice([[], {}]),
            ]
        )()

    def value(self, depth: int = 0) -> Any:
        roll = self.random()
        if depth >= 4 or roll < 0.5:
            return self.leaf()
        if roll < 0.75:
            return [self.value(depth + 1) for _ in range(self.randint(0, 4))]
        return {self.choice(NAMES + INDEXES): self.value(depth + 1) for _ in range(4)}

    def query(self) -> dict[str, Any]:
        return {self.choice(NAMES + INDEXES): self.value(1) for _ in range(self.randint(1, 5))}


def limit_cases() -> list[str]:
    """Strings at and just beyond each limit (depth 5, lists of 1000, 1000 parameters)."""
    deep = "a" + "[b]" * 5
    return [
        f"{deep}=1",
        f"{deep}[c]=1",
        f"{deep}[=1",
        "[a][b][c][d][e][f]=1",
        "a[b[c[d[e[f[g]]]]]]=1",
        "&".join(["a[]=x"] * 1000),
        "&".join(["a[]=x"] * 1001),
        "&".join(["a=x"] * 1001),
        "&".join(f"a[{index}]=x" for index in range(1000)),
        "&".join(f"a[{index}]=x" for index in range(1001)),
        "&".join(["a[b]=x"] * 999 + ["a[b][]=y"]),
        "a[999]=x&a=y",
        "a=y&a[999]=x",
        "a[999]=x&a[]=y",
        "a[]=y&a[999]=x",
        "a[998]=x&a=y",
        "a[999][b]=x&a[0][c]=y",
        "a[1000]=x",
        "a[100000000000000000000]=x",
        "&".join(f"k{index}=v" for index in range(1000)),
        "&".join(f"k{index}=v" for index in range(1001)),
    ]


# Comparison ------------------------------------------------------------------------------


def ours(text: str) -> Any:
    try:
        return codec.parse(text)
    except BadRequest as error:
        assert error.code == 400
        return error


def as_json(value: Any) -> str:
    """JSON keeping key order: qs's objects and ours must list their keys alike."""
    return json.dumps(value, ensure_ascii=False)


def test_parse_and_stringify_agree_with_the_qs_express_uses(batch):
    mismatches = []
    for text, answer in zip(batch["strings"], batch["parse"], strict=True):
        result = ours(text)
        if answer["limited"]:
            if not isinstance(result, BadRequest):
                mismatches.append(f"{text[:200]!r}: qs hits a limit, we answer {result!r}")
        elif isinstance(result, BadRequest):
            mismatches.append(f"{text[:200]!r}: we refuse ({result}), qs: {answer['value']}")
        elif as_json(result) != as_json(answer["value"]):
            mismatches.append(f"{text[:200]!r}: ours {as_json(result)}, qs {answer['value']}")
    for value, expected in zip(batch["values"], batch["stringify"], strict=True):
        if codec.stringify(value) != expected:
            mismatches.append(
                f"stringify {value!r}: ours {codec.stringify(value)!r}, qs {expected!r}"
            )

    assert not mismatches, (
        f"{len(mismatches)} differences with qs {batch['version']}:\n" + "\n".join(mismatches[:40])
    )


def test_the_cases_reach_the_interesting_corners(batch):
    """The generator keeps producing what the comparison is for: limits, lists, brackets."""
    answers = batch["parse"]
    values = [answer["value"] for answer in answers if not answer["limited"]]
    assert sum(answer["limited"] for answer in answers) >= 100
    assert len(values) >= 1000
    assert sum("[" in as_json(value) for value in values) >= 200
    assert sum(any(isinstance(item, list) for item in value.values()) for value in values) >= 200
    assert sum("%5B" in text for text in batch["stringify"]) >= RANDOM_VALUES // 2

"""
Each ratio of a benchmark run against an earlier one: what a change did to the hot paths.

    python -m bench --full --compare bench/.data/results-20260101-120000.json
    python -m bench.compare bench/.data/results-A.json bench/.data/results-B.json

Ratios (django-feathers req/s over DRF's and over the plain view's, run by run, as in the
report) are what is compared: the absolute figures of two runs minutes apart on a shared
machine differ by more than most changes. A ratio that fell by more than `NOTICEABLE` is shown
in bold.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from statistics import median
from typing import Any

#: A ratio change within this fraction is noise between runs.
NOTICEABLE = 0.05

Ratios = dict[tuple[str, str, str], float]


def load_results(path: str | Path) -> dict[str, Any]:
    """A results-*.json file written by `python -m bench`."""
    results = json.loads(Path(path).read_text())
    if not isinstance(results, dict) or "servers" not in results:
        raise ValueError(f"{path} is not a results file of python -m bench")
    return results


def ratios(results: dict[str, Any]) -> Ratios:
    """`{(server, workload, "vs drf" | "vs plain"): median of the per-run ratios}`."""
    rps: dict[tuple[str, str, str], list[float]] = {}
    for cell in results["servers"]:
        server = cell["server"]
        if len(server.split()) == 3 and not server.endswith("feathers"):
            # Files written before the index shapes were measured: composite indexes.
            server += " composite"
        rps[server, cell["workload"], cell["variant"]] = [
            run["requests"] / run["seconds"] if run["seconds"] else 0.0 for run in cell["runs"]
        ]
    found: Ratios = {}
    for (server, workload, variant), ours in rps.items():
        if variant != "services":
            continue
        for other in ("drf", "plain"):
            theirs = rps.get((server, workload, other))
            if theirs:
                pairs = [a / b for a, b in zip(ours, theirs, strict=False) if b]
                if pairs:
                    found[server, workload, f"vs {other}"] = median(pairs)
    return found


def comparison_markdown(
    earlier: dict[str, Any], later: dict[str, Any], earlier_name: str = "earlier"
) -> str:
    """A Markdown table of every ratio both runs measured, and the change."""
    before, after = ratios(earlier), ratios(later)
    lines = [
        f"### Ratios against {earlier_name}",
        "",
        f"Earlier run: {earlier.get('machine', {}).get('date', '?')}; this run: "
        f"{later.get('machine', {}).get('date', '?')}. Bold: fell by more than "
        f"{NOTICEABLE:.0%}.",
        "",
        "| server | workload | ratio | before | now | change |",
        "| --- | --- | --- | ---: | ---: | ---: |",
    ]
    fell = 0
    for key in after:
        if key not in before:
            continue
        server, workload, ratio = key
        change = after[key] / before[key] - 1
        text = f"{change:+.1%}"
        if change < -NOTICEABLE:
            text = f"**{text}**"
            fell += 1
        lines.append(
            f"| {server} | {workload} | {ratio} | {before[key]:.2f}x | {after[key]:.2f}x | {text} |"
        )
    only = sorted(set(after) - set(before))
    if only:
        lines += ["", f"Measured now only: {', '.join(' '.join(key) for key in only)}."]
    lines += ["", f"{fell} ratio(s) fell by more than {NOTICEABLE:.0%}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("earlier", help="the earlier results-*.json")
    parser.add_argument("later", help="the later results-*.json")
    args = parser.parse_args(argv)
    try:
        earlier, later = load_results(args.earlier), load_results(args.later)
    except (OSError, ValueError, KeyError) as failure:
        parser.error(f"cannot read the results: {failure}")
    print(comparison_markdown(earlier, later, args.earlier))
    return 0


if __name__ == "__main__":
    sys.exit(main())

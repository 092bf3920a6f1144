"""Two evaluation runs of the same questions, question by question: per strategy and
question group (LoCoMo category, LongMemEval type), the mean difference of a metric (after
minus before), a paired bootstrap 95% interval of it, and how many questions got better
and worse. Noise is what the interval spans: a difference whose interval holds 0 is none.

    python -m benchmarks runs-paired BEFORE_DIR AFTER_DIR [--metric evidence_recall_at_budget]
        [--budget 1000] [--groups knowledge-update,temporal-reasoning] [--resamples 5000]

Both directories are ``graphmem eval ... --out`` results (``conversations.jsonl``) of the
same data: a question is paired by its conversation, strategy, budget and its place among
that conversation's questions (the harness asks them in file order).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.graphmem_paired import Paired, paired

Key = tuple[str, str, int, int]  # conversation, strategy, budget, place


def _records(folder: Path, metric: str) -> dict[Key, tuple[str, float]]:
    out: dict[Key, tuple[str, float]] = {}
    for line in (folder / "conversations.jsonl").read_text(encoding="utf-8").splitlines():
        row: dict[str, Any] = json.loads(line)
        places: dict[tuple[str, int], int] = defaultdict(int)
        for strategy, budget, group, _latency, values in row["records"]:
            place = places[(strategy, budget)]
            places[(strategy, budget)] += 1
            if metric in values and values[metric] is not None:
                out[(row["conversation"], strategy, budget, place)] = (str(group), values[metric])
    return out


def compare(
    before: Path, after: Path, metric: str, budget: int, groups: set[str], resamples: int
) -> dict[str, list[Paired]]:
    """Per strategy, the paired rows of each group and ``all`` over the groups kept."""
    first, second = _records(before, metric), _records(after, metric)
    diffs: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for key, (group, value) in first.items():
        if key[2] != budget or key not in second or (groups and group not in groups):
            continue
        diff = second[key][1] - value
        diffs[key[1]][group].append(diff)
        diffs[key[1]]["all"].append(diff)
    return {
        strategy: sorted(paired(by_group, resamples, seed=0), key=lambda p: p.group)
        for strategy, by_group in sorted(diffs.items())
    }


def table(found: dict[str, list[Paired]], metric: str) -> str:
    lines = [
        f"{metric}, after - before (points; paired bootstrap 95% interval)",
        "",
        "| strategy | group | n | mean | 95% interval | better | worse |",
        "|---|---|---|---|---|---|---|",
    ]
    for strategy, rows in found.items():
        for p in rows:
            lines.append(
                f"| {strategy} | {p.group} | {p.n} | {100 * p.mean:+.1f} | "
                f"[{100 * p.low:+.1f}, {100 * p.high:+.1f}] | {p.better} | {p.worse} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--metric", default="evidence_recall_at_budget")
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--groups", default="", help="comma-separated groups to keep")
    parser.add_argument("--resamples", type=int, default=5000)
    args = parser.parse_args()
    groups = {g for g in args.groups.split(",") if g}
    found = compare(args.before, args.after, args.metric, args.budget, groups, args.resamples)
    print(table(found, args.metric))


if __name__ == "__main__":
    main()

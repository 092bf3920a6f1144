"""Side-by-side ER@B / ATR@B tables from `graphmem eval locomo --out DIR` results.

    python -m benchmarks compare default=/tmp/eval-default paper=/tmp/eval-paper \
        --budget 1000 --strategy seem,hipporag,hybrid,fulltext

prints one Markdown row per (strategy, run): overall and each LoCoMo category (the file's
numbering, docs/eval.md), each cell "evidence recall / answer-token recall" in percent,
with MCov@B and Compr@B overall. ``--cells coverage`` puts "memory coverage / context
compression" (MCov@B / Compr@B) in the category cells instead. Rows follow the --strategy
order, runs in the given order.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

_CATEGORIES = ("multi-hop", "temporal", "open-domain", "single-hop")
_NUMBERS = {"multi-hop": 1, "temporal": 2, "open-domain": 3, "single-hop": 4}


def _load(spec: str) -> tuple[str, list[dict[str, Any]]]:
    label, _, path = spec.partition("=")
    found = Path(path or label)
    file = found / "results.json" if found.is_dir() else found
    data = json.loads(file.read_text(encoding="utf-8"))
    results = data["results"] if isinstance(data, dict) else data
    return (label if path else found.name), results


CELLS = {
    "er-atr": ("evidence_recall_at_budget", "answer_token_recall_at_budget"),
    "coverage": ("memory_coverage_at_budget", "context_compression_at_budget"),
}


def _cell(summary: dict[str, Any] | None, keys: tuple[str, str] = CELLS["er-atr"]) -> str:
    if not summary or summary.get(keys[0]) is None or summary.get(keys[1]) is None:
        return "–"
    return f"{100 * summary[keys[0]]:.1f} / {100 * summary[keys[1]]:.1f}"


def rows(
    runs: list[tuple[str, list[dict[str, Any]]]],
    budget: int,
    strategies: list[str] | None,
    cells: str = "er-atr",
) -> list[str]:
    head = ["strategy", "run", "overall", *(f"{c} ({_NUMBERS[c]})" for c in _CATEGORIES)]
    head += ["MCov@B", "Compr@B", "p95 ms"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    names = strategies or list(dict.fromkeys(r["strategy"] for _, rs in runs for r in rs))
    for name in names:
        for label, results in runs:
            found = [r for r in results if r["strategy"] == name and r["budget"] == budget]
            if not found:
                continue
            result = found[0]
            overall = result["overall"]
            groups = result.get("by_category", {})
            keys = CELLS[cells]
            row = [name, label, _cell(overall, keys)]
            row += [_cell(groups.get(c), keys) for c in _CATEGORIES]
            for key in ("memory_coverage_at_budget", "context_compression_at_budget"):
                value = overall.get(key)
                row.append("–" if value is None else f"{100 * value:.1f}")
            latency = overall.get("latency_ms") or {}
            row.append(f"{latency['p95']:.0f}" if "p95" in latency else "–")
            out.append("| " + " | ".join(row) + " |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="LABEL=DIR (or DIR) of an eval --out")
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--strategy", default="", help="comma list; default: all, in order")
    parser.add_argument(
        "--cells", choices=sorted(CELLS), default="er-atr", help="what the category cells show"
    )
    args = parser.parse_args()
    runs = [_load(spec) for spec in args.runs]
    strategies = [s for s in args.strategy.split(",") if s] or None
    shown = "ER@B / ATR@B" if args.cells == "er-atr" else "MCov@B / Compr@B"
    print(f"Budget {args.budget} tokens; cells: {shown} in percent.\n")
    print("\n".join(rows(runs, args.budget, strategies, args.cells)))

"""Where a ``graphmem`` query's time goes: each member's time, the fusion's and the total,
p50 / p95 over every question, in one process on built spaces, and each part's share of
the total's p50.

    python -m benchmarks strategy-parts ../shared/data/locomo/locomo10-dev.json \\
        --space-prefix v12 [--budget 1000] [--limit 2] [--json F]

Per conversation the retriever is built and prepared (never timed), a few questions warm
it up, then every question of categories 1-4 is asked once; the times are those the
strategy reports (``RetrievalResult.timings_ms``). Run it alone on
the machine: the parts are milliseconds, the machine's drift tens of percent.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from benchmarks.common import latency_summary, machine, require_built, table, warm_up
from graphmem.eval.harness import locomo_questions
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from graphmem.retrieval.registry import build_retriever


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--space-prefix", default="v12")
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--limit", type=int, help="only the first N conversations")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    return parser.parse_args()


def run(args: argparse.Namespace) -> dict[str, Any]:
    dataset = load(args.data, "locomo")
    memory = Memory()
    parts: dict[str, list[float]] = {}
    try:
        for conv in dataset.conversations[: args.limit]:
            space = f"{args.space_prefix}-{conv.conversation_id}"
            require_built(memory.store, space)
            retriever = build_retriever("graphmem", memory.retrieval_context(space))
            retriever.prepare()
            questions = [q.text for q, _ in locomo_questions(conv, dataset)]
            warm_up(retriever, questions, args.budget, memory.settings)
            for question in questions:
                timings = retriever.retrieve(question, args.budget).timings_ms
                for part, ms in timings.items():
                    parts.setdefault(part, []).append(ms)
    finally:
        memory.close()
    return {"budget": args.budget, "machine": machine(), "parts_ms": parts}


def report(numbers: dict[str, Any]) -> list[str]:
    parts: dict[str, list[float]] = numbers["parts_ms"]
    total = statistics.median(parts["total"])
    order = sorted((p for p in parts if p != "total"), key=lambda p: -statistics.median(parts[p]))
    rows = []
    for part in [*order, "total"]:
        summary = latency_summary(parts[part])
        share = 100 * summary["p50"] / total if total else 0.0
        rows.append([part, f"{summary['p50']:.1f}", f"{summary['p95']:.1f}", f"{share:.0f} %"])
    n = len(parts["total"])
    head = f"graphmem at {numbers['budget']} tokens, {n} questions, one process"
    return [head, "", *table(["part", "p50 ms", "p95 ms", "share of total p50"], rows)]


def main() -> None:
    args = arguments()
    numbers = run(args)
    if args.json:
        args.json.write_text(json.dumps(numbers, indent=2) + "\n")
    print("\n".join(report(numbers)))

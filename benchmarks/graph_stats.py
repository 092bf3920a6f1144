"""The semantic layer's size per conversation next to SEEM's Table 10 (appendix B.1).

    python -m benchmarks graph-stats --space-prefix paper-paper [--data FILE]

Reads the spaces ``<prefix>-<sample id>`` an eval run built (``graphmem eval locomo
--space-prefix``); prints a Markdown table of entities, facts, facts with a time and synonym
edges per conversation and their mean, beside the paper's means over its 10 partitions.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from graphmem.memory import Memory
from graphmem.semantic.stats import semantic_stats

# SEEM, appendix B.1, Table 10: means over the 10 LoCoMo partitions (LLM extraction).
PAPER_MEANS = {
    "entities": 1525.8,
    "facts": 2233.7,
    "temporal_anchors": 1983.8,
    "synonym_edges": 13652.4,
}
DEV = Path("../shared/data/locomo/locomo10-dev.json")  # from the repository root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space-prefix", required=True)
    parser.add_argument("--data", type=Path, default=DEV)
    args = parser.parse_args()
    ids = [c["sample_id"] for c in json.loads(args.data.read_text())]
    memory = Memory()
    keys = list(PAPER_MEANS)
    lines = ["| conversation | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    rows = [semantic_stats(memory.store, f"{args.space_prefix}-{i}") for i in ids]
    for sample, row in zip(ids, rows, strict=True):
        lines.append(f"| {sample} | " + " | ".join(f"{row[k]:,}" for k in keys) + " |")
    built = [r for r in rows if r["facts"]]
    means = {k: sum(r[k] for r in built) / max(1, len(built)) for k in keys}
    lines.append(f"| mean ({len(built)}) | " + " | ".join(f"{means[k]:,.1f}" for k in keys) + " |")
    lines.append("| SEEM Table 10 | " + " | ".join(f"{PAPER_MEANS[k]:,.1f}" for k in keys) + " |")
    print("\n".join(lines))

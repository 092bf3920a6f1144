"""PREMem's section of ``graphmem stats``: fragments per category, clusters, the pool,
connected pairs and insights per pattern for one space."""

from __future__ import annotations

from typing import Any

from graphmem.designs.premem.models import CATEGORIES, PATTERN_LABELS
from graphmem.plugin import GraphStore


def premem_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("premem.stats", space=space)[0]
    turns, fragments = int(row["turns"]), int(row["fragments"])
    categories = {str(k): int(v) for k, v in row["categories"] if k is not None}
    patterns = {str(k): int(v) for k, v in row["patterns"] if k is not None}
    sessions = int(row["sessions"])
    return {
        "fragments": fragments,
        "fragments_per_turn": round(fragments / turns, 2) if turns else 0.0,
        "categories": {c: categories.get(c, 0) for c in CATEGORIES},
        "clusters": int(row["clusters"]),
        "clusters_per_session": round(int(row["clusters"]) / sessions, 2) if sessions else 0.0,
        "in_pool": int(row["in_pool"]),
        "connected_pairs": int(row["pairs"]),
        "insights": int(row["insights"]),
        "patterns": {p: patterns.get(p, 0) for p in PATTERN_LABELS},
    }

"""AnchorMem's section of ``graphmem stats``: the paper's Table 5 figures for one space."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import GraphStore


def anchormem_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("anchormem.stats", space=space)[0]
    turns, facts = int(row["turns"]), int(row["facts"])
    candidates, discarded = int(row["candidates"] or 0), int(row["discarded"] or 0)
    mean_size = row["mean_event_size"]
    return {
        "facts": facts,
        "events": int(row["events"]),
        "discarded_groups": discarded,
        "candidate_groups": candidates,
        "similar_links": int(row["similar"]),
        "integrated_facts": int(row["integrated"]),
        "facts_per_turn": round(facts / turns, 2) if turns else 0.0,
        "mean_event_size": round(float(mean_size), 2) if mean_size is not None else 0.0,
        "discard_rate": round(discarded / candidates, 3) if candidates else 0.0,
    }

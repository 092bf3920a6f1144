"""SEEM's section of ``graphmem stats``: the semantic layer's size (as in SEEM's Table 10)
and the episodic layer's consolidation ratio (passages per frame, Table 11)."""

from __future__ import annotations

from typing import Any

from graphmem.store import GraphStore


def seem_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("seem.stats", space=space)[0]
    frames = int(row["frames"])
    passages = int(row["passages_with_frames"])
    return {
        "entities": int(row["entities"]),
        "facts": int(row["facts"]),
        "temporal_anchors": int(row["temporal_anchors"]),
        "synonym_edges": int(row["synonym_edges"]),
        "frames": frames,
        "events": int(row["events"]),
        "passages_with_frames": passages,
        "consolidation_ratio": round(passages / frames, 2) if frames else None,
    }

"""SEEM's section of ``graphmem stats``: the episodic layer's consolidation ratio (passages
per frame, SEEM's Table 11). The semantic layer's size is the ``semantic`` section."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import GraphStore


def seem_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("seem.stats", space=space)[0]
    frames = int(row["frames"])
    passages = int(row["passages_with_frames"])
    return {
        "frames": frames,
        "events": int(row["events"]),
        "passages_with_frames": passages,
        "consolidation_ratio": round(passages / frames, 2) if frames else None,
    }

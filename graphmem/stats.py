"""``graphmem stats``: node counts of a space plus each registered design's own figures."""

from __future__ import annotations

from typing import Any

from graphmem.designs.registry import registry
from graphmem.store import GraphStore


def space_stats(store: GraphStore, space: str) -> dict[str, Any]:
    counts = {row["label"]: row["count"] for row in store.read("core.space_counts", space=space)}
    out: dict[str, Any] = {"space": space, "nodes": counts}
    for name, found in registry().items():
        if found.stats is not None:
            out[name] = found.stats(store, space)
    return out

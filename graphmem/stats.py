"""``graphmem stats``: node counts of a space plus each design's own figures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.store import GraphStore

# Designs append a function returning their section (e.g. SEEM's consolidation ratio).
SECTIONS: dict[str, Callable[[GraphStore, str], dict[str, Any]]] = {}
from graphmem.designs.seem.stats import seem_stats  # noqa: E402

SECTIONS["seem"] = seem_stats
# <seem-stats>
# <anchormem-stats>
from graphmem.designs.anchormem.stats import anchormem_stats  # noqa: E402

SECTIONS["anchormem"] = anchormem_stats


def space_stats(store: GraphStore, space: str) -> dict[str, Any]:
    counts = {row["label"]: row["count"] for row in store.read("core.space_counts", space=space)}
    out: dict[str, Any] = {"space": space, "nodes": counts}
    for name, section in SECTIONS.items():
        out[name] = section(store, space)
    return out

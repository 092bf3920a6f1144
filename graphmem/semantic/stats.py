"""The semantic layer's section of ``graphmem stats``: its size, as in SEEM's Table 10
(entities, facts, facts with a time, synonym edges) plus mentions and linked speakers."""

from __future__ import annotations

from typing import Any

from graphmem.graph.store import GraphStore


def semantic_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("semantic.stats", space=space)[0]
    return {key: int(row[key]) for key in row}

"""``graphmem stats``: node counts of a space, each registered design's own figures, and
what the space's builds have cost (``build_cost``: per design and in total, LLM calls,
cache hits, tokens and seconds included; see ``graphmem.builders.cost``)."""

from __future__ import annotations

from typing import Any

from graphmem.builders.cost import space_build_costs
from graphmem.graph.store import GraphStore
from graphmem.plugin.label_statements import SPACE_LABEL_COUNTS
from graphmem.plugin.registry import registry


def space_stats(store: GraphStore, space: str) -> dict[str, Any]:
    # Every design's labels through their indexes: a scan of every node grows with the
    # whole database (0.7 s at 660,000 nodes), this with the space.
    designs = registry()
    rows = store.read(SPACE_LABEL_COUNTS, space=space)
    counts = {row["label"]: row["count"] for row in rows}
    out: dict[str, Any] = {"space": space, "nodes": counts}
    for name, found in designs.items():
        if found.stats is not None:
            out[name] = found.stats(store, space)
    cost = space_build_costs(store, space)
    if cost:
        out["build_cost"] = cost
    return out


SPACE_COLUMNS = ("space", "conversations", "sessions", "turns")


def space_list(store: GraphStore) -> list[dict[str, Any]]:
    """Every space in the database with its conversations, sessions and turns (the CLI's
    `spaces` and the MCP tool of that name)."""
    return [{k: row[k] for k in SPACE_COLUMNS} for row in store.read("analyst.spaces")]

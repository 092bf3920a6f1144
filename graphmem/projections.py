"""Names and lifecycle of the per-space GDS in-memory graphs."""

from __future__ import annotations

import hashlib

from graphmem.store import GraphStore


def graph_prefix(space: str) -> str:
    # Space names are user text; the graph name uses a hash so it is always a safe identifier.
    return "graphmem-" + hashlib.sha256(space.encode("utf-8")).hexdigest()[:16] + "-"


def graph_name(space: str, kind: str) -> str:
    return graph_prefix(space) + kind


def drop_space_graphs(store: GraphStore, space: str) -> list[str]:
    """Drop every projection of a space (after ingest into it, and on forget)."""
    names = [row["graph"] for row in store.read("gds.list_graphs", prefix=graph_prefix(space))]
    for name in names:
        store.write("gds.drop_graph", graph=name)
    return names

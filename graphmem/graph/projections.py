"""Names and lifecycle of the per-space GDS in-memory graphs."""

from __future__ import annotations

import hashlib

from graphmem.graph.store import GraphStore

PREFIX = "graphmem-"


def graph_prefix(space: str) -> str:
    # Space names are user text; the graph name uses a hash so it is always a safe identifier.
    return PREFIX + hashlib.sha256(space.encode("utf-8")).hexdigest()[:16] + "-"


def graph_name(space: str, kind: str) -> str:
    return graph_prefix(space) + kind


def drop_space_graphs(store: GraphStore, space: str) -> list[str]:
    """Drop every projection of a space (after ingest into it, and on forget)."""
    names = [row["graph"] for row in store.read("gds.list_graphs", prefix=graph_prefix(space))]
    for name in names:
        store.write("gds.drop_graph", graph=name)
    return names


def evict_oldest(store: GraphStore, limit: int, keep: str, kind: str) -> list[str]:
    """Keep at most ``limit`` per-space projections of ``kind`` in the server, dropping
    the oldest (by creation) beyond it but never ``keep``. Each projection holds heap for
    as long as it lives (about 9 MiB for one LoCoMo conversation's semantic graph), so
    without a cap a database serving many spaces fills the heap. A retriever whose graph
    was dropped projects it again on its next query (its snapshot is found stale)."""
    suffix = "-" + kind
    rows = [
        r for r in store.read("gds.graphs_by_age", prefix=PREFIX) if r["graph"].endswith(suffix)
    ]
    excess = len(rows) - max(1, limit)
    dropped: list[str] = []
    for row in rows:
        if len(dropped) >= excess:
            break
        if row["graph"] != keep:
            store.write("gds.drop_graph", graph=row["graph"])
            dropped.append(row["graph"])
    return dropped

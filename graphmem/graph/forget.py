"""Deleting one space's nodes (``graphmem forget``), in batches of one write each."""

from __future__ import annotations

from graphmem.graph.store import GraphStore
from graphmem.plugin.label_statements import DELETE_SPACE_LABELLED
from graphmem.plugin.registry import registry

BATCH = 5000  # nodes per write transaction: a space of any size, in bounded memory


def delete_space_nodes(store: GraphStore, space: str) -> int:
    """Every node of ``space``: the designs' labels through their indexes on ``space``
    first, then one scan of every node for what no design declares (ledger nodes, a user's
    own labels). A scan per batch would grow with the whole database, not the space."""
    registry()  # registers the generated statement for every design's labels
    deleted = 0
    for name in (DELETE_SPACE_LABELLED, "core.delete_space_batch"):
        while True:
            rows = store.write(name, space=space, batch=BATCH)
            if not rows[0]["deleted"]:
                break
            deleted += rows[0]["deleted"]
    return deleted

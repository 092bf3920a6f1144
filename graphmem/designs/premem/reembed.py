"""PREMem's vectors recomputed with another embedder (``graphmem reembed``): fragments and
insights from ``key: value`` (their ``embed_text``, the passage side), then each cluster's
centroid as the mean of its fragments' new vectors (``clustering.centroid``). Which
fragments a cluster groups stays as the first embedder clustered them."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphmem.designs.premem.clustering import centroid
from graphmem.plugin import Embedder, GraphStore, rewrite_vectors


def _key_value(row: dict[str, Any]) -> str:
    return f"{row['key']}: {row['value']}"


def _centroids(store: GraphStore, space: str) -> int:
    rows = [
        {"id": r["id"], "centroid": list(centroid(np.asarray(r["vectors"], dtype=np.float32)))}
        for r in store.read("premem.cluster_members", space=space)
        if r["vectors"]
    ]
    if rows:
        store.write("premem.set_centroids", space=space, rows=rows)
    return len(rows)


def reembed_premem(store: GraphStore, embedder: Embedder, space: str) -> int:
    fragments = ("premem.reembed_fragments", "premem.set_fragments_vectors")
    insights = ("premem.reembed_insights", "premem.set_insights_vectors")
    done = rewrite_vectors(store, embedder, space, fragments, _key_value, "passage")
    done += rewrite_vectors(store, embedder, space, insights, _key_value, "passage")
    return done + _centroids(store, space)

"""CAST's vectors recomputed with another embedder (``graphmem reembed``): scenes from their
summary (the passage side), views as the normalised mean of their turns' vectors
(``views.topic_vector``), read after the passages were re-embedded."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphmem.designs.cast.views import topic_vector
from graphmem.plugin import Embedder, GraphStore, rewrite_vectors

_BATCH = 512


def _summary(row: dict[str, Any]) -> str:
    return str(row["summary"])


def _views(store: GraphStore, space: str) -> int:
    after, done = "", 0
    while rows := store.read("cast.reembed_views", space=space, after=after, batch=_BATCH):
        out = []
        for row in rows:
            keys = [str(i) for i in range(len(row["vectors"]))]
            stored = {
                k: np.asarray(v, dtype=np.float32)
                for k, v in zip(keys, row["vectors"], strict=True)
            }
            vector = topic_vector(keys, stored)
            out.append({"id": row["id"], "embedding": [float(x) for x in vector]})
        store.write("cast.set_views_vectors", space=space, rows=out)
        after, done = rows[-1]["id"], done + len(rows)
    return done


def reembed_cast(store: GraphStore, embedder: Embedder, space: str) -> int:
    scenes = ("cast.reembed_scenes", "cast.set_scenes_vectors")
    return rewrite_vectors(store, embedder, space, scenes, _summary, "passage") + _views(
        store, space
    )

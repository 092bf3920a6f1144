"""SEEM's event-frame vectors recomputed with another embedder (``graphmem reembed``), read
after the passages were re-embedded: each frame's parts (seem/vectors.py) embedded again,
summaries on the passage side as the builder embeds them (LLM backend) or turns' new
vectors averaged (offline), then folded in the order the build fused them. Which drafts
a frame fused stays as the first embedder's consolidation decided it."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphmem.designs.seem.vectors import Vector, fold, window_vector
from graphmem.plugin import Embedder, GraphStore

_BATCH = 256


def _part_vectors(
    row: dict[str, Any], texts: dict[str, Vector], turns: dict[str, Vector]
) -> list[Vector]:
    if row["texts"] is not None:
        return [texts[t] for t in row["texts"]]
    out, start = [], 0
    for size in row["sizes"]:
        out.append(window_vector([turns[p] for p in row["passages"][start : start + size]]))
        start += size
    return out


def _frame_vectors(
    store: GraphStore, embedder: Embedder, space: str, rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    wanted = sorted({t for r in rows if r["texts"] is not None for t in r["texts"]})
    texts = dict(zip(wanted, embedder.embed(wanted, "passage"), strict=True))
    ids = sorted({p for r in rows if r["texts"] is None for p in r["passages"]})
    turns = {
        r["id"]: np.asarray(r["embedding"], dtype=np.float32)
        for r in store.read("seem.passage_embeddings", space=space, ids=ids)
    }
    return [
        {
            "id": r["id"],
            "embedding": [
                float(x) for x in fold(_part_vectors(r, texts, turns), r["sizes"], r["passages"])
            ],
        }
        for r in rows
    ]


def reembed_seem(store: GraphStore, embedder: Embedder, space: str) -> int:
    after, done = "", 0
    while rows := store.read("seem.reembed_frames", space=space, after=after, batch=_BATCH):
        out = _frame_vectors(store, embedder, space, rows)
        store.write("seem.set_frame_vectors", space=space, rows=out)
        after, done = rows[-1]["id"], done + len(rows)
    return done

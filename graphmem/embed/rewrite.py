"""One label's vectors written again with another embedder, in id batches: the piece every
``Design.reembed`` hook shares (``graphmem reembed``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.embed.base import Embedder, Kind
from graphmem.graph.store import GraphStore

_BATCH = 512


def rewrite_vectors(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    statements: tuple[str, str],
    text: Callable[[dict[str, Any]], str],
    kind: Kind,
) -> int:
    """``statements``: a read (``$space, $after, $batch`` -> ``id`` and the text's parts,
    in id order) and a write (``$space, $rows`` of ``id``, ``embedding``). Returns the
    number of vectors written."""
    read, write = statements
    after, done = "", 0
    while rows := store.read(read, space=space, after=after, batch=_BATCH):
        vectors = embedder.embed([text(r) for r in rows], kind)
        out = [
            {"id": r["id"], "embedding": [float(x) for x in v]}
            for r, v in zip(rows, vectors, strict=True)
        ]
        store.write(write, space=space, rows=out)
        after, done = rows[-1]["id"], done + len(rows)
    return done

"""The passage baselines as a registry entry: dense (vector index), fulltext (BM25) and
hybrid (reciprocal rank fusion of both). They read only the core layer, so they need no
builder; every design is measured against them."""

from __future__ import annotations

from graphmem.designs.base import Design
from graphmem.retrieval.passages import DenseRetriever, FulltextRetriever, HybridRetriever

DESIGN = Design(
    name="baselines",
    kind="baseline",
    title="Passage baselines",
    summary="dense (vector index), fulltext (BM25) and hybrid (RRF, k=60) over the turns",
    retrievers={
        "dense": DenseRetriever,
        "fulltext": FulltextRetriever,
        "hybrid": HybridRetriever,
    },
    labels=("Space", "Conversation", "Session", "Passage", "Speaker", "Character"),
    indexed_labels=("Passage",),
    relationships=("IN_SPACE", "IN_CONVERSATION", "IN_SESSION", "NEXT", "SPOKE"),
    cypher=("core", "retrieval"),
    docs="schema/README.md",
)

"""The one place CAST reaches the shared HippoRAG 2 semantic layer: its ``hipporag``
retriever gives E_sem(q), the semantic top-k (paper 3.2, "follows HippoRAG2")."""

from __future__ import annotations

from graphmem.plugin import RetrievalContext, Retriever
from graphmem.semantic import HippoRagRetriever

# The layer whose builder writes the semantic graph CAST requires.
SEMANTIC_LAYER = "semantic"


def semantic_retriever(ctx: RetrievalContext) -> Retriever:
    """The ``hipporag`` retriever over the same space, with the layer's resolved settings."""
    return HippoRagRetriever(ctx, ctx.configs.get(SEMANTIC_LAYER))

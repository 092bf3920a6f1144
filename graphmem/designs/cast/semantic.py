"""The one place CAST reaches the shared HippoRAG 2 semantic layer: its ``hipporag``
retriever gives E_sem(q), the semantic top-k (paper 3.2, "follows HippoRAG2")."""

from __future__ import annotations

from graphmem.retrieval.base import RetrievalContext, Retriever


def semantic_retriever(ctx: RetrievalContext) -> Retriever:
    """The ``hipporag`` retriever over the same space."""
    # Until graphmem.semantic lands on main, the HippoRAG 2 retriever lives in SEEM's package.
    from graphmem.designs.seem.retriever import HippoRagRetriever

    return HippoRagRetriever(ctx)

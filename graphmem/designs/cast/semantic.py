"""The one place CAST reaches the shared HippoRAG 2 semantic layer: its ``hipporag``
retriever gives E_sem(q), the semantic top-k (paper 3.2, "follows HippoRAG2")."""

from __future__ import annotations

from graphmem.retrieval.base import RetrievalContext, Retriever

# The design whose builder writes the semantic layer CAST requires: "semantic" once
# graphmem.semantic is on main; SEEM's builder writes that layer until then.
SEMANTIC_LAYER = "seem"


def semantic_retriever(ctx: RetrievalContext) -> Retriever:
    """The ``hipporag`` retriever over the same space."""
    # Until graphmem.semantic lands on main, the HippoRAG 2 retriever lives in SEEM's package.
    from graphmem.designs.seem.retriever import HippoRagRetriever

    return HippoRagRetriever(ctx)

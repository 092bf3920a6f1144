"""Retrievers of the registered designs: a strategy name -> its design's retriever,
constructed with that design's resolved settings (``graphmem.designs.registry``)."""

from __future__ import annotations

from graphmem.designs.registry import builders_for, strategy_names, strategy_owner
from graphmem.retrieval.base import RetrievalContext, Retriever

__all__ = ["build_retriever", "builders_for", "strategy_names"]


def build_retriever(name: str, ctx: RetrievalContext) -> Retriever:
    owner, factory = strategy_owner(name)
    return factory(ctx, ctx.configs.get(owner.name))

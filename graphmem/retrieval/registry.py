"""Retrievers of the registered designs: a strategy name -> its design's retriever,
constructed with that design's resolved settings (``graphmem.plugin.registry``)."""

from __future__ import annotations

from graphmem.errors import ConfigError
from graphmem.plugin.registry import builders_for, strategy_names, strategy_owner
from graphmem.plugin.retriever import RetrievalContext, Retriever
from graphmem.serving.limits import DEFAULT_STRATEGY

__all__ = ["DEFAULT_STRATEGY", "build_retriever", "builders_for", "strategy_names"]

# DEFAULT_STRATEGY (graphmem.serving.limits): what `query`, `ask` use without a strategy on every
# surface: the cross-design strategy, which measures best on evidence and answer-token
# recall overall (docs/graphmem-strategy.md); a space without designs is answered by its
# fallback, hybrid.


def build_retriever(name: str, ctx: RetrievalContext, *, valid_time: bool = True) -> Retriever:
    """The retriever of strategy ``name``; with ``valid_time`` (and ``Settings.validity``)
    wrapped so that its context marks superseded memories (graphmem/validity/retrieval.py).
    The cross-design strategy builds its members without: it is wrapped once, whole."""
    owner, factory = strategy_owner(name)
    made = factory(ctx, ctx.configs.get(owner.name))
    if not isinstance(made, Retriever):
        raise ConfigError(f"design {owner.name}: strategy {name!r} made no Retriever ({made!r})")
    if valid_time and ctx.settings.validity:
        from graphmem.validity.retrieval import ValidTimeRetriever

        return ValidTimeRetriever(ctx, made)
    return made

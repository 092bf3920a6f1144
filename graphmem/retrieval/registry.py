"""Strategy name -> retriever class. Builders of later designs register theirs here."""

from __future__ import annotations

from graphmem.errors import ConfigError
from graphmem.retrieval.base import RetrievalContext, Retriever
from graphmem.retrieval.passages import DenseRetriever, FulltextRetriever, HybridRetriever

RETRIEVERS: dict[str, type[Retriever]] = {
    "dense": DenseRetriever,
    "fulltext": FulltextRetriever,
    "hybrid": HybridRetriever,
}
# Builders whose layer a strategy reads: eval and ingest run them before querying.
STRATEGY_BUILDERS: dict[str, list[str]] = {}
from graphmem.designs.seem.retriever import HippoRagRetriever, SeemRetriever  # noqa: E402

RETRIEVERS["seem"] = SeemRetriever
RETRIEVERS["hipporag"] = HippoRagRetriever
STRATEGY_BUILDERS["seem"] = ["seem"]
STRATEGY_BUILDERS["hipporag"] = ["seem"]
# <seem-retrievers>
# <anchormem-retrievers>
from graphmem.designs.anchormem.retriever import AnchorMemRetriever  # noqa: E402

RETRIEVERS["anchormem"] = AnchorMemRetriever
STRATEGY_BUILDERS["anchormem"] = ["anchormem"]


def strategy_names() -> list[str]:
    return list(RETRIEVERS)


def builders_for(strategies: list[str]) -> list[str]:
    needed: list[str] = []
    for name in strategies:
        needed.extend(b for b in STRATEGY_BUILDERS.get(name, []) if b not in needed)
    return needed


def build_retriever(name: str, ctx: RetrievalContext) -> Retriever:
    try:
        cls = RETRIEVERS[name]
    except KeyError:
        raise ConfigError(
            f"unknown strategy {name!r}", hint=f"choose one of {', '.join(RETRIEVERS)}"
        ) from None
    return cls(ctx)

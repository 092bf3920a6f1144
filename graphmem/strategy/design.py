"""The cross-design strategy as a registry entry (``kind="strategy"``): no builder, no labels,
one retriever ``graphmem`` over whatever the space was built with."""

from __future__ import annotations

from graphmem.plugin.design import Design, Preset
from graphmem.strategy.settings import GraphmemSettings

PRESETS = {
    "agreement": Preset(
        description="turns several designs rank near the top first (CAST's Algorithm 2 "
        "generalised), then the rest, each part in RRF order",
        values={"fusion": "agreement"},
        sources={"fusion": "CAST, section 3.3.3 and Appendix A, Algorithm 2 (two lists)"},
    ),
    "turns": Preset(
        description="turns only: derived items come after every ranked turn",
        values={"derived_share": 0.0},
    ),
    "wide": Preset(
        description="three quarters of the tokens for derived items: more turns cited, fewer "
        "shown (picked by the LoCoMo dev sweep, docs/graphmem-strategy.md; not a default)",
        values={"derived_share": 0.75},
        sources={"derived_share": "ours: the share sweep on the 7 LoCoMo dev conversations"},
    ),
    "fast": Preset(
        description="no PageRank member: the designs that run it per query left out, so a "
        "query skips the question's triples and GDS (lower latency for about a point of "
        "evidence recall; docs/graphmem-strategy.md)",
        values={"pagerank": False},
        sources={"pagerank": "ours: a latency option (p95 against evidence recall, LoCoMo dev)"},
    ),
    "derived": Preset(
        description="derived items only (facts, fragments, summaries), turns after them",
        values={"derived_share": 1.0},
    ),
}


DESIGN = Design(
    name="graphmem",
    kind="strategy",
    title="graphmem: cross-design retrieval",
    summary="every design built in the space retrieves; their ranked turns are fused by "
    "reciprocal rank (or agreement promotion); derived items rank as their cited turns do "
    "on average and share the budget with the turns they do not restate",
    settings=GraphmemSettings,
    retrievers={"graphmem": "graphmem.strategy.retriever:GraphmemRetriever"},
    default_strategy="graphmem",
    # An evaluation of graphmem builds every layer these read.
    reads="graphmem.strategy.members:candidates",
    presets=PRESETS,
    docs="docs/graphmem-strategy.md",
)

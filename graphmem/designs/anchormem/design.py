"""AnchorMem (atomic facts anchored to their context, associative events) as a design."""

from __future__ import annotations

from graphmem.designs.anchormem.builder import AnchorMemBuilder
from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.designs.anchormem.retriever import AnchorMemRetriever
from graphmem.designs.anchormem.stats import anchormem_stats
from graphmem.designs.base import Design, Preset

DESIGN = Design(
    name="anchormem",
    title="AnchorMem: Anchored Facts with Associative Contexts",
    summary="atomic facts as retrieval anchors mapped to their source context, "
    "an associative event graph with redundancy pruning",
    settings=AnchorMemConfig,
    builder=AnchorMemBuilder,
    retrievers={"anchormem": AnchorMemRetriever},
    labels=("AtomicFact", "AssocEvent"),
    derived_labels=("AtomicFact", "AssocEvent"),
    relationships=("SIMILAR", "INTEGRATES"),
    presets={
        "paper": Preset(
            description="the values AnchorMem publishes",
            values={"tau": 0.85, "neighbours": 3},
            sources={
                "tau": "AnchorMem, section 3.2 (similarity threshold tau = 0.85)",
                "neighbours": "AnchorMem, section 3.2 (N = 3 neighbours)",
            },
        )
    },
    cypher=("anchormem",),
    stats=anchormem_stats,
    docs="docs/anchormem.md",
)

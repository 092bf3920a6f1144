"""SEEM (structured episodic event memory) as a graphmem design."""

from __future__ import annotations

from graphmem.designs.base import Design, Preset
from graphmem.designs.seem.builder import SeemBuilder
from graphmem.designs.seem.config import SeemConfig
from graphmem.designs.seem.retriever import HippoRagRetriever, SeemRetriever
from graphmem.designs.seem.stats import seem_stats

DESIGN = Design(
    name="seem",
    title="SEEM: Structured Episodic Event Memory",
    summary="event frames with provenance, associative consolidation, quadruple facts, "
    "Personalized PageRank and reverse provenance expansion",
    settings=SeemConfig,
    builder=SeemBuilder,
    retrievers={"seem": SeemRetriever, "hipporag": HippoRagRetriever},
    labels=("Entity", "Fact", "EventFrame", "Event"),
    derived_labels=("Fact", "EventFrame", "Event"),
    relationships=("MENTIONS", "SUBJECT", "OBJECT", "SYNONYM", "IS", "HAS_EVENT", "PARTICIPANT"),
    presets={
        "paper": Preset(
            description="the values SEEM and HippoRAG 2 publish",
            values={
                "synonym_threshold": 0.8,
                "fact_top_k": 5,
                "seed_entities": 5,
                "passage_node_weight": 0.05,
                "damping": 0.5,
                "rpe_factor": 2.0,
            },
            sources={
                "synonym_threshold": "HippoRAG 2, section 3 (synonym edges at cosine >= 0.8)",
                "fact_top_k": "HippoRAG 2, section 3.2 (top-5 facts)",
                "seed_entities": "HippoRAG 2, implementation details",
                "passage_node_weight": "HippoRAG 2, section 3.2 (weight factor 0.05)",
                "damping": "HippoRAG 2 code (damping 0.5)",
                "rpe_factor": "SEEM, section 4 (at most twice the initial retrieval)",
            },
        )
    },
    cypher=("seem", "semantic"),
    stats=seem_stats,
    docs="docs/seem.md",
)

"""SEEM (structured episodic event memory) as a graphmem design: event frames with
provenance and associative consolidation, on top of the semantic layer it requires."""

from __future__ import annotations

from pathlib import Path

from graphmem.designs.seem.settings import SeemSettings
from graphmem.plugin import Design, Label, NodeStyle, Preset, Reembed

_HERE = Path(__file__).resolve().parent

DESIGN = Design(
    name="seem",
    title="SEEM: Structured Episodic Event Memory",
    summary="event frames with provenance and associative consolidation over the semantic "
    "layer; Personalized PageRank and reverse provenance expansion",
    settings=SeemSettings,
    builder="graphmem.designs.seem.builder:SeemBuilder",
    retrievers={"seem": "graphmem.designs.seem.retriever:SeemRetriever"},
    requires=("semantic",),
    labels={
        "EventFrame": Label(
            derived=True,
            indexed=True,
            style=NodeStyle(
                color="#FF7F0E",
                border="#C85F00",
                diameter=65,
                caption="{caption}",
                meaning="SEEM episodic frame: a summary of related turns",
            ),
        ),
        "Event": Label(
            derived=True,
            statement="action",
            style=NodeStyle(
                color="#C49C94",
                border="#9C7469",
                diameter=45,
                caption="{action}",
                meaning="SEEM event of a frame: an action and who takes part",
            ),
        ),
    },
    reorders={"seem": "hipporag"},
    pagerank=True,
    relationships=("HAS_EVENT", "PARTICIPANT"),
    presets={
        "paper": Preset(
            description="the values SEEM publishes (the semantic layer has its own preset)",
            values={
                "frame_window": 1,
                "fuse_candidates": 1,
                "rpe_factor": 2.0,
                "rpe_top_k": 5,
                "frame_summaries": "all",
                "context_facts": 5,
            },
            sources={
                "frame_window": "SEEM, section 3.2.1 (one episodic frame per passage p_t)",
                "fuse_candidates": "SEEM, section 3.2.2 (the judge compares a new frame with "
                "the most relevant historical frame)",
                "rpe_factor": "SEEM, section 4 (the expanded evidence set is at most twice "
                "the initial retrieval budget)",
                "rpe_top_k": "SEEM, section 4 (top-k = 5 passages retrieved before Reverse "
                "Provenance Expansion, section 3.4.2)",
                "frame_summaries": "SEEM, section 3.4.3 (the context serialises the "
                "passages, the retrieved episodic frames and the top facts)",
                "context_facts": "SEEM, section 3.4.3 (K_top: the top facts of the "
                "HippoRAG 2 linking step, linking top-k = 5)",
            },
        )
    },
    # Its statements and schema live in its package: loaded into the catalog as
    # ``seem.<file>`` and ``schema.<kind>.<file>`` when the design is registered.
    cypher_dir=_HERE / "cypher",
    schema_dir=_HERE / "schema",
    stats="graphmem.designs.seem.stats:seem_stats",
    docs="graphmem/designs/seem/README.md",
    reembed=Reembed(labels=("EventFrame",), run="graphmem.designs.seem.reembed:reembed_seem"),
    build_settings=(
        "frame_window",
        "fuse_candidates",
        "fuse_min_similarity",
        "fuse_max_gap_hours",
        "fuse_require_shared",
        "max_frame_passages",
        "max_events_per_frame",
        "max_summary_statements",
    ),
)

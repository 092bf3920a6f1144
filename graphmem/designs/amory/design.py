"""Amory (narrative-driven agent memory) as a graphmem design."""

from __future__ import annotations

from pathlib import Path

from graphmem.designs.amory.config import AmorySettings
from graphmem.plugin import Design, Label, NodeStyle, Preset, Reembed

_SECTION_41 = "Amory, section 4.1 (implementation details)"

_HERE = Path(__file__).resolve().parent

DESIGN = Design(
    name="amory",
    title="Amory: Narrative-Driven Agent Memory",
    summary="turns bound into stories with owner, headline and characters; subplots "
    "consolidated when a story goes inactive; peripheral facts semanticised into the "
    "semantic layer; coherence-driven retrieval over headlines plus a read-only graph query",
    settings=AmorySettings,
    builder="graphmem.designs.amory.builder:AmoryBuilder",
    retrievers={"amory": "graphmem.designs.amory.retriever:AmoryRetriever"},
    requires=("semantic",),
    labels={
        "Narrative": Label(
            derived=True,
            style=NodeStyle(
                color="#3B2A80",
                border="#261A59",
                text="#FFFFFF",
                diameter=75,
                caption="{headline}",
                meaning="Amory narrative: a story line of the conversation",
            ),
        ),
        "Subplot": Label(
            derived=True,
            style=NodeStyle(
                color="#B5A3F5",
                border="#8B75D9",
                diameter=60,
                caption="{headline}",
                meaning="Amory subplot: a consolidated stretch of a narrative",
            ),
        ),
        "StoryItem": Label(
            derived=True,
            style=NodeStyle(
                color="#E377C2",
                border="#B8559B",
                diameter=50,
                caption="{caption}",
                meaning="Amory story item: a turn (or part of one) bound to a narrative",
            ),
        ),
        "Fact": Label(derived=True),
        "Entity": Label(),
        "Character": Label(),
    },
    relationships=("ABOUT", "HOLDS", "HAS_SUBPLOT", "SEMANTICIZED", "SUBJECT", "OBJECT"),
    presets={
        "paper": Preset(
            description="the values Amory publishes; k stories only (no budget filling)",
            values={
                "init_turns": 20,
                "consolidation_window": 10,
                "top_k": 2,
                "fact_k": 2,
                "inactive_after": 1,
                "consolidation": "inactive",
                "drop_filler": True,
                "fill_budget": False,
            },
            sources={
                "init_turns": f"{_SECTION_41}: T = 20 turns",
                "consolidation_window": f"{_SECTION_41}: N = 10 memory fragments",
                "top_k": f"{_SECTION_41}: k = 2 retrieved episodic memories",
                "fact_k": f"{_SECTION_41}: k = 2 retrieved semantic memories",
                "inactive_after": f"{_SECTION_41}: inactive when nothing was bound in the "
                "previous iteration",
                "consolidation": "Amory, section 4.3 and Table 2 (inactive consolidation)",
                "drop_filler": "Amory, section 3.2 (dialogue filler is discarded)",
                "fill_budget": "Amory, section 3.2 (at most k leaf nodes are selected)",
            },
        )
    },
    # Its statements and schema live in its package: loaded into the catalog as
    # ``amory.<file>`` and ``schema.<kind>.<file>`` when the design is registered.
    cypher_dir=_HERE / "cypher",
    schema_dir=_HERE / "schema",
    stats="graphmem.designs.amory.stats:amory_stats",
    docs="graphmem/designs/amory/README.md",
    reembed=Reembed(
        labels=("Narrative", "Subplot"), run="graphmem.designs.amory.reembed:reembed_amory"
    ),
    build_settings=(
        "init_turns",
        "consolidation_window",
        "inactive_after",
        "consolidation",
        "drop_filler",
        "new_story_threshold",
        "recency_bonus",
        "recent_excerpts",
        "headline_weight",
        "headline_phrases",
        "rapid_interval",
        "min_subplot_items",
        "side_facts_per_item",
    ),
)

"""CAST as a graphmem design plug-in: builder ``cast``, retriever ``cast``, settings, presets,
stats. Requires the shared semantic layer (its ``hipporag`` retriever gives E_sem)."""

from __future__ import annotations

from pathlib import Path

from graphmem.designs.cast.config import CastSettings
from graphmem.plugin import Command, Design, Label, NodeStyle, Preset, Reembed

_PAPER_SOURCES = {
    "window": "3.1 View; 4.1 Configurations (w = 1); 4.3.1 View parameters",
    "participants": "3.2 and 3.3.1 (speakers and all mentioned persons; Table 7 participant_story)",
    "delta_t_days": "4.1 Configurations (delta_t = 1); Table 5 (days)",
    "delta_tau": "4.1 Configurations (delta_tau = 0.7); Table 6",
    "episodic_k": "4.1 Configurations (k = 5)",
    "fusion": "3.3.3 Retrieval fusion; Appendix A Algorithm 2",
    "cues": "3.2 Online Query Processing (names, times, locations used to filter scenes)",
    "relative_cues": "ours: 3.2 names times as cues, not what a relative one counts from; "
    "a dated question's own date (graphmem/designs/cast/README.md)",
}
_OURS = {
    "delta_l": "ours: the paper gives no Delta_l; 0 = same normalised place "
    "(graphmem/designs/cast/README.md)",
    "summary_tokens": "ours: extractive summary cap, the encoder's 128-token training length",
    "cue_boost": "ours: only used by cues=boost",
    "view_turns": "ours under a token budget: a view's neighbours cost as much as further "
    "semantic hits and are mostly reactions; the paper (k = 5, no budget) shows whole views",
}

PRESETS = {
    "default": Preset(
        description="the paper's algorithms; the semantic list is as long as the budget "
        "holds and shows each entry's centre turn (its view stays in the graph)",
        values={"semantic_k": None, "view_turns": "centre"},
        sources={
            **_PAPER_SOURCES,
            "semantic_k": "ours under a token budget: Table 4 shows recall grows with k "
            "up to 8-9, so the list takes what the budget holds",
            **_OURS,
        },
    ),
    "paper": Preset(
        description="the paper's basic configuration: k = 5 semantic entries (4.1)",
        values={"semantic_k": 5, "view_turns": "window"},
        sources={
            **_PAPER_SOURCES,
            "semantic_k": "4.1 Configurations (k = 5); Table 4",
            **_OURS,
            "view_turns": "3.1 and 4.1 (memories are views: a message with w = 1 neighbours)",
        },
    ),
}


_HERE = Path(__file__).resolve().parent

DESIGN = Design(
    name="cast",
    title="CAST: Character-and-Scene episodic memory",
    summary="Views (a turn with its neighbours), character streams, scenes by greedy 3D "
    "aggregation (time, place, topic: two of three), main/supporting roles and character "
    "profiles; semantic hits also found in the question's scenes are promoted.",
    settings=CastSettings,
    # Import strings: reading the record imports none of its code (graphmem.plugin.lazy).
    builder="graphmem.designs.cast.builder:CastBuilder",
    retrievers={"cast": "graphmem.designs.cast.retriever:CastRetriever"},
    requires=("semantic",),  # SEMANTIC_LAYER (graphmem/designs/cast/semantic.py)
    labels={
        "View": Label(
            derived=True,
            style=NodeStyle(
                color="#8DD3C7",
                border="#5FB3A5",
                diameter=50,
                caption="{line}",
                meaning="CAST view: one turn read with its neighbours (caption: the turn)",
            ),
        ),
        "Scene": Label(
            derived=True,
            style=NodeStyle(
                color="#9467BD",
                border="#6F4A92",
                text="#FFFFFF",
                diameter=70,
                caption="{summary}",
                meaning="CAST scene: a character's role, company and time in a stretch of turns",
            ),
        ),
        "Character": Label(),
    },
    reorders={"cast": "hipporag"},
    pagerank=True,
    commands={
        "profile": Command(
            help="A character profile built by `--builders cast`: scenes, roles (MC/SC), "
            "dates, summaries.",
            target="graphmem.designs.cast.cli:profile",
        )
    },
    reembed=Reembed(labels=("View", "Scene"), run="graphmem.designs.cast.reembed:reembed_cast"),
    relationships=("FROM", "HAS_VIEW", "IN_SCENE"),
    presets=PRESETS,
    # Its statements and schema live in its package: loaded into the catalog as
    # ``cast.<file>`` and ``schema.<kind>.<file>`` when the design is registered.
    cypher_dir=_HERE / "cypher",
    schema_dir=_HERE / "schema",
    stats="graphmem.designs.cast.stats:cast_stats",
    docs="graphmem/designs/cast/README.md",
    build_settings=(
        "window",
        "participants",
        "delta_t_days",
        "delta_l",
        "delta_tau",
        "summary_tokens",
    ),
)

"""PREMem (pre-storage reasoning over typed fragments and cross-session clusters) as a design."""

from __future__ import annotations

from pathlib import Path

from graphmem.designs.premem.config import PremSettings
from graphmem.plugin import Design, Label, NodeStyle, Preset, Reembed

_HERE = Path(__file__).resolve().parent

DESIGN = Design(
    name="premem",
    title="PREMem: Pre-Storage Reasoning for Episodic Memory",
    summary="factual / experiential / subjective fragments with key, value and date; "
    "per-session clusters joined through a persistent pool (theta 0.6); cross-session "
    "insights; top-k over fragments and insights, shown in time order",
    settings=PremSettings,
    builder="graphmem.designs.premem.builder:PremBuilder",
    retrievers={"premem": "graphmem.designs.premem.retriever:PremRetriever"},
    labels={
        "Fragment": Label(
            derived=True,
            statement="value",
            valid_time=True,
            style=NodeStyle(
                color="#BCBD22",
                border="#8E8F12",
                diameter=50,
                caption="{value}",
                meaning="PREMem fragment: a factual, experiential or subjective memory of a turn",
            ),
        ),
        "Cluster": Label(
            derived=True,
            style=NodeStyle(
                color="#8C564B",
                border="#643B33",
                text="#FFFFFF",
                diameter=50,
                caption="{topic}",
                meaning="PREMem cluster: a session's fragments on one topic",
            ),
        ),
        "Insight": Label(
            derived=True,
            style=NodeStyle(
                color="#D62728",
                border="#A11A1B",
                text="#FFFFFF",
                diameter=65,
                caption="{value}",
                meaning="PREMem insight: a pattern reasoned across sessions",
            ),
        ),
    },
    reembed=Reembed(
        labels=("Fragment", "Insight"), run="graphmem.designs.premem.reembed:reembed_premem"
    ),
    relationships=("FROM", "GROUPS", "CONNECTS", "REASONS_OVER"),
    presets={
        "paper": Preset(
            description="the values the PREMem paper prescribes",
            values={"theta": 0.6, "insights": True, "offline_insights": True, "messages": False},
            sources={
                "offline_insights": "PREMem, Algorithm 1 line 22 ranks every reasoning "
                "fragment (the paper has no offline backend; this preset ranks ours too)",
                "messages": "PREMem, section 3.3: the reader sees memory fragments only (the "
                "original messages are the Limitations section's suggestion for single-hop)",
                "theta": "PREMem, section 3.2.1 and Appendix E (theta = 0.6)",
                "insights": "PREMem, section 3.3 and Algorithm 1 line 22 "
                "(top-k over fragments and reasoning fragments, M union R)",
            },
        )
    },
    # Its statements and schema live in its package: loaded into the catalog as
    # ``premem.<file>`` and ``schema.<kind>.<file>`` when the design is registered.
    cypher_dir=_HERE / "cypher",
    schema_dir=_HERE / "schema",
    stats="graphmem.designs.premem.stats:premem_stats",
    docs="graphmem/designs/premem/README.md",
    build_settings=(
        "theta",
        "max_clusters",
        "random_state",
        "n_init",
        "max_listed_dates",
    ),
)

"""AnchorMem (atomic facts anchored to their context, associative events) as a design."""

from __future__ import annotations

from pathlib import Path

from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.plugin import Design, Label, NodeStyle, Preset, Reembed

_HERE = Path(__file__).resolve().parent

DESIGN = Design(
    name="anchormem",
    title="AnchorMem: Anchored Facts with Associative Contexts",
    summary="atomic facts as retrieval anchors mapped to their source context, "
    "an associative event graph with redundancy pruning",
    settings=AnchorMemConfig,
    builder="graphmem.designs.anchormem.builder:AnchorMemBuilder",
    retrievers={"anchormem": "graphmem.designs.anchormem.retriever:AnchorMemRetriever"},
    labels={
        "AtomicFact": Label(
            derived=True,
            indexed=True,
            statement="text",
            valid_time=True,
            style=NodeStyle(
                color="#17BECF",
                border="#1096A3",
                diameter=55,
                caption="{text}",
                meaning="AnchorMem atomic fact: one self-contained statement of a turn",
            ),
        ),
        "AssocEvent": Label(
            derived=True,
            indexed=True,
            style=NodeStyle(
                color="#0B5394",
                border="#073763",
                text="#FFFFFF",
                diameter=60,
                caption="{caption}",
                meaning="AnchorMem associative event: related atomic facts told as one story",
            ),
        ),
    },
    reembed=Reembed(
        labels=("AtomicFact", "AssocEvent"),
        run="graphmem.designs.anchormem.reembed:reembed_anchormem",
    ),
    relationships=("SIMILAR", "INTEGRATES"),
    presets={
        "paper": Preset(
            description="the values AnchorMem publishes",
            values={
                "tau": 0.85,
                "neighbours": 3,
                "pruning": "eq9",
                "paper_top_k": 10,
                "facts_per_event": 1,
                "extractive_events": "interleave",
            },
            sources={
                "pruning": "AnchorMem, section 3.2, Eq. 9 (a cluster whose facts map to one "
                "context ceil(N/2) times or more is locally redundant and discarded)",
                "paper_top_k": "AnchorMem, section 4 and Table 1 (retrieval top-k = 10 facts "
                "mapped to their contexts, and top-k events; Table 7 varies k from 10 to 50)",
                "facts_per_event": "AnchorMem, section 3.3 (facts and events retrieved "
                "separately with the same k: one event per fact in the ranked list)",
                "extractive_events": "AnchorMem, section 3.3 (events are part of the context "
                "with the facts' contexts, not appended after them)",
                "tau": "AnchorMem, section 3.2 (similarity threshold tau = 0.85)",
                "neighbours": "AnchorMem, section 3.2 (N = 3 neighbours)",
            },
        )
    },
    # Its statements and schema live in its package: loaded into the catalog as
    # ``anchormem.<file>`` and ``schema.<kind>.<file>`` when the design is registered.
    cypher_dir=_HERE / "cypher",
    schema_dir=_HERE / "schema",
    stats="graphmem.designs.anchormem.stats:anchormem_stats",
    docs="graphmem/designs/anchormem/README.md",
    build_settings=(
        "window",
        "step",
        "tau",
        "neighbours",
        "pruning",
        "candidate_pool",
    ),
)

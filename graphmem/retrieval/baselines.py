"""The passage baselines as a registry entry: dense (vector index), fulltext (BM25) and
hybrid (reciprocal rank fusion of both). They read only the core layer, so they need no
builder; every design is measured against them."""

from __future__ import annotations

from graphmem.plugin.design import Design, Label
from graphmem.plugin.style import NodeStyle

DESIGN = Design(
    name="baselines",
    kind="baseline",
    title="Passage baselines",
    summary="dense (vector index), fulltext (BM25) and hybrid (RRF, k=60) over the turns",
    retrievers={
        "dense": "graphmem.retrieval.passages:DenseRetriever",
        "fulltext": "graphmem.retrieval.passages:FulltextRetriever",
        "hybrid": "graphmem.retrieval.passages:HybridRetriever",
    },
    labels={
        "Space": Label(
            style=NodeStyle(
                color="#2F2F2F",
                border="#000000",
                text="#FFFFFF",
                diameter=70,
                caption="{name}",
                meaning="a memory space: everything stored for one user or agent",
            )
        ),
        "Conversation": Label(
            style=NodeStyle(
                color="#7F7F7F",
                border="#5E5E5E",
                text="#FFFFFF",
                diameter=60,
                caption="{id}",
                meaning="one conversation of the space",
            )
        ),
        "Session": Label(
            style=NodeStyle(
                color="#C7C7C7",
                border="#8F8F8F",
                diameter=55,
                caption="{source_id} {date_text}",
                meaning="one session of a conversation, with its date",
            )
        ),
        "Passage": Label(
            indexed=True,
            style=NodeStyle(
                color="#6FB7F0",
                border="#3F8FCC",
                diameter=65,
                caption="{speaker} said {text}",
                meaning="one turn: who said what (every memory points at its turns with FROM)",
            ),
        ),
        "Speaker": Label(
            style=NodeStyle(
                color="#FDB4D0",
                border="#D98AAA",
                diameter=60,
                caption="{name}",
                meaning="someone who speaks in a conversation",
            )
        ),
        "Character": Label(
            style=NodeStyle(
                color="#D6337F",
                border="#A82463",
                text="#FFFFFF",
                diameter=60,
                caption="{name}",
                meaning="a person the conversation is about: a speaker or someone they name",
            )
        ),
    },
    relationships=("IN_SPACE", "IN_CONVERSATION", "IN_SESSION", "NEXT", "SPOKE"),
    cypher=("core", "retrieval"),
    docs="schema/README.md",
)

"""The example design's declaration: the only object graphmem needs from a plug-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import Design, DesignSettings, GraphStore, Label, NodeStyle, Preset


class KeywordSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_KEYWORDS_")

    max_keywords: int = Field(default=5, ge=1, description="keywords kept per passage")
    min_length: int = Field(default=3, ge=1, description="shorter words are ignored")


def keyword_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("keywords.stats", space=space)[0]
    return {"keywords": int(row["keywords"]), "links": int(row["links"])}


DESIGN = Design(
    name="keywords",
    title="Keywords (example)",
    summary="capitalised words of each turn as Keyword nodes; retrieval by shared keywords",
    settings=KeywordSettings,
    # Import strings: reading this record imports none of memory.py (graphmem.plugin.lazy).
    builder="tests.example_design.memory:KeywordBuilder",
    retrievers={"keywords": "tests.example_design.memory:KeywordRetriever"},
    labels={
        "Keyword": Label(
            derived=True,
            style=NodeStyle(
                color="#6A3D9A",
                text="#FFFFFF",
                caption="{word}",
                meaning="a capitalised word of a turn (the example design)",
            ),
        ),
    },
    relationships=("FROM",),
    presets={
        "paper": Preset(
            description="what the (imaginary) paper prescribes",
            values={"max_keywords": 3},
            sources={"max_keywords": "Example paper, section 2"},
        )
    },
    cypher_dir=Path(__file__).parent / "cypher",
    stats=keyword_stats,
    docs="docs/adding-a-design.md",
)

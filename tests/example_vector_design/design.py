"""The vector example design's declaration: a plug-in with its own schema (a vector index),
an indexed label the over-fetch counts, and a CLI command, all from this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import Command, Design, DesignSettings, GraphStore, Label

HERE = Path(__file__).parent


class GistSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_GISTS_")

    words: int = Field(default=12, ge=1, description="words of a turn its gist keeps")


def gist_stats(store: GraphStore, space: str) -> dict[str, Any]:
    """A hook may be a callable too (here: one that imports its code when it runs)."""
    from tests.example_vector_design.memory import gist_count

    return {"gists": gist_count(store, space)}


DESIGN = Design(
    name="gists",
    title="Gists (vector example)",
    summary="the first words of each turn, embedded; retrieval through its own vector index",
    settings=GistSettings,
    builder="tests.example_vector_design.memory:GistBuilder",
    retrievers={"gists": "tests.example_vector_design.memory:GistRetriever"},
    labels={
        "Gist": Label(derived=True, indexed=True),
    },
    relationships=("FROM",),
    cypher_dir=HERE / "cypher",
    schema_dir=HERE / "schema",
    commands={
        "gists": Command(
            help="How many gists the vector example design wrote in a space.",
            target="tests.example_vector_design.memory:gists_command",
        )
    },
    stats=gist_stats,
    docs="docs/adding-a-design.md",
)

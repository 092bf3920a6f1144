"""The vector example design's declaration: a plug-in with its own schema (a vector index),
an indexed label the over-fetch counts, and a CLI command, all from this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import Design, DesignSettings, GraphStore
from tests.example_vector_design.memory import GistBuilder, GistRetriever, gist_count

HERE = Path(__file__).parent


class GistSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_GISTS_")

    words: int = Field(default=12, ge=1, description="words of a turn its gist keeps")


def gist_stats(store: GraphStore, space: str) -> dict[str, Any]:
    return {"gists": gist_count(store, space)}


def _commands() -> list[Any]:
    from tests.example_vector_design.memory import gists_command

    return [gists_command]


DESIGN = Design(
    name="gists",
    title="Gists (vector example)",
    summary="the first words of each turn, embedded; retrieval through its own vector index",
    settings=GistSettings,
    builder=GistBuilder,
    retrievers={"gists": GistRetriever},
    labels=("Gist",),
    derived_labels=("Gist",),
    relationships=("FROM",),
    indexed_labels=("Gist",),
    cypher_dir=HERE / "cypher",
    schema_dir=HERE / "schema",
    commands=_commands,
    stats=gist_stats,
    docs="docs/adding-a-design.md",
)

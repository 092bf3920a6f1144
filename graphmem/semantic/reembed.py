"""The semantic layer's vectors recomputed with another embedder (``graphmem reembed``):
entities from their key, the normalised name the writer embeds (symmetric side); facts
from their statement, ``subject relation object`` as the writer forms it (passage side)."""

from __future__ import annotations

from typing import Any

from graphmem.embed import Embedder
from graphmem.embed.rewrite import rewrite_vectors
from graphmem.graph.store import GraphStore


def _statement(row: dict[str, Any]) -> str:
    return f"{row['subject']} {row['relation']} {row['object']}"


def _key(row: dict[str, Any]) -> str:
    return str(row["key"])


def reembed_semantic(store: GraphStore, embedder: Embedder, space: str) -> int:
    entities = ("semantic.reembed_entities", "semantic.set_entity_vectors")
    facts = ("semantic.reembed_facts", "semantic.set_fact_vectors")
    return rewrite_vectors(store, embedder, space, entities, _key, "symmetric") + (
        rewrite_vectors(store, embedder, space, facts, _statement, "passage")
    )

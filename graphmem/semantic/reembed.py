"""The semantic layer's vectors recomputed with another embedder (``graphmem reembed``):
entities from their key, the normalised name the writer embeds (symmetric side); facts
from their statement, ``subject relation object`` as the writer forms it (passage side)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.embed import Embedder
from graphmem.embed.base import Kind
from graphmem.store import GraphStore

_BATCH = 512


def _statement(row: dict[str, Any]) -> str:
    return f"{row['subject']} {row['relation']} {row['object']}"


def _entity_text(row: dict[str, Any]) -> str:
    return str(row["key"])


def _label(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    names: tuple[str, str],
    text: Callable[[dict[str, Any]], str],
    kind: Kind,
) -> int:
    read, write = names
    after, done = "", 0
    while rows := store.read(read, space=space, after=after, batch=_BATCH):
        vectors = embedder.embed([text(r) for r in rows], kind)
        out = [
            {"id": r["id"], "embedding": [float(x) for x in v]}
            for r, v in zip(rows, vectors, strict=True)
        ]
        store.write(write, space=space, rows=out)
        after, done = rows[-1]["id"], done + len(rows)
    return done


def reembed_semantic(store: GraphStore, embedder: Embedder, space: str) -> int:
    entities = ("semantic.reembed_entities", "semantic.set_entity_vectors")
    facts = ("semantic.reembed_facts", "semantic.set_fact_vectors")
    return _label(store, embedder, space, entities, _entity_text, "symmetric") + _label(
        store, embedder, space, facts, _statement, "passage"
    )

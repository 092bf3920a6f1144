"""Spaces for the scale run: stored conversations replayed under new space names, vectors
included (nothing is embedded again), and an embedder that remembers what it embedded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmem.embed import Embedder
from graphmem.embed.base import Kind, Vectors
from graphmem.graph.store import GraphStore


@dataclass(frozen=True)
class SpaceCopy:
    """A space's core layer, ready to be written under any other name."""

    source: str
    nodes: list[dict[str, Any]]
    rels: list[dict[str, Any]]

    @property
    def passages(self) -> int:
        return sum("Passage" in n["labels"] for n in self.nodes)


def read_space(store: GraphStore, space: str) -> SpaceCopy:
    """The core layer of ``space``: nodes (labels, properties, embedding) and the
    relationships between them, as indexes into the node list."""
    rows = store.read("bench.space_nodes", space=space)
    index = {row["key"]: i for i, row in enumerate(rows)}
    nodes = [
        {
            "labels": row["labels"],
            "props": {k: v for k, v in row["props"] if k != "space"},
            "embedding": row["embedding"],
        }
        for row in rows
    ]
    rels = [
        {"a": index[r["a"]], "b": index[r["b"]], "type": r["type"], "props": r["props"]}
        for r in store.read("bench.space_relationships", space=space)
        if r["a"] in index and r["b"] in index
    ]
    return SpaceCopy(space, nodes, rels)


def _renamed(value: Any, old: str, new: str) -> Any:
    return new if value == old else value


def write_copy(store: GraphStore, copy: SpaceCopy, space: str) -> dict[str, int]:
    """``copy`` as the new space ``space``, in one transaction (all or nothing, so an
    interrupted run resumes at the first missing space). The Space node's id and name are
    the space name: every property equal to the source's name takes the new one."""
    nodes = [
        {**n, "props": {k: _renamed(v, copy.source, space) for k, v in n["props"].items()}}
        for n in copy.nodes
    ]
    rows = store.retrying(
        lambda tx: tx.run("bench.copy_space", space=space, nodes=nodes, rels=copy.rels)
    )
    return {"nodes": rows[0]["nodes"], "relationships": rows[0]["relationships"]}


class CachingEmbedder(Embedder):
    """Embeds each text once per process: a second ingest of the same conversation then
    times the database work alone."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.cache: dict[tuple[Kind, str], Vectors] = {}
        self.enabled = True

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        if not self.enabled:
            return self.inner.embed(texts, kind)
        missing = [t for t in dict.fromkeys(texts) if (kind, t) not in self.cache]
        if missing:
            for text, vec in zip(missing, self.inner.embed(missing, kind), strict=True):
                self.cache[kind, text] = vec
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.cache[kind, t] for t in texts]).astype(np.float32)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return self.inner.count_tokens_many(texts)

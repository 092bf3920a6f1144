"""A retriever's in-memory copy of one space: its passages (with embeddings and projection
node ids), facts and entities, read once and kept for as long as the space's
PageRank projection it was read with. Every ingest into the space drops that projection
(and the PageRank statement reports the projection's creation time), so a snapshot never
outlives the graph it describes.

Why in memory: a conversation space is small (a LoCoMo conversation: ~600 passages, ~800
facts, ~1,500 entities, about 5 MB of vectors), the vector indexes span every space (a
space filter after an approximate search needs an over-fetch that grows with the
database), and an exact matrix product over the space takes well under a millisecond
where each index search is a round trip. ``SemanticSettings.in_memory_index = False`` keeps the
fact and entity searches in the vector indexes for spaces too large to hold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel

from graphmem.graph.rows import read_typed
from graphmem.graph.store import GraphStore
from graphmem.plugin.retriever import PassageRef
from graphmem.semantic.names import entity_id
from graphmem.semantic.seeds import SeedEntity

Matrix = npt.NDArray[np.float32]


class PassageRow(BaseModel):
    """A row of ``semantic.space_passages``."""

    node_id: int
    embedding: list[float]
    passage: PassageRef


@dataclass
class FactHit:
    id: str
    text: str
    cosine: float
    entities: list[SeedEntity]
    sources: list[PassageRef]


def _matrix(rows: list[list[float]]) -> Matrix:
    # A space without facts (one greeting, say) has no rows, whose width numpy cannot
    # infer: an empty matrix, which every search below checks for before it multiplies.
    if not rows:
        return np.zeros((0, 0), dtype=np.float32)
    return np.array(rows, dtype=np.float32).reshape(len(rows), -1)


def _best(matrix: Matrix, vectors: list[list[float]]) -> npt.NDArray[np.float32]:
    """Per row of ``matrix``, its largest cosine with any of ``vectors`` (all unit length)."""
    scores: npt.NDArray[np.float32] = (matrix @ _matrix(vectors).T).max(axis=1)
    return scores


@dataclass
class SemanticIndex:
    """The space's facts and embedded entities, searched exactly."""

    facts: list[FactHit]  # cosine 0: filled in per query
    fact_vectors: Matrix
    entities: list[SeedEntity]
    entity_vectors: Matrix

    @classmethod
    def load(cls, store: GraphStore, space: str, by_id: dict[str, PassageRef]) -> SemanticIndex:
        entity_rows = store.read("semantic.space_entities", space=space)
        known = {
            r["id"]: SeedEntity(r["id"], int(r["node_id"]), int(r["passages"]), r["name"])
            for r in entity_rows
        }
        embedded = [r for r in entity_rows if r["embedding"] is not None]
        fact_rows = store.read("semantic.space_facts", space=space)
        facts = [
            FactHit(
                id=r["id"],
                text=r["text"],
                cosine=0.0,
                entities=[known[e] for e in r["entity_ids"] if e in known],
                sources=[by_id[p] for p in r["source_ids"] if p in by_id],
            )
            for r in fact_rows
        ]
        return cls(
            facts=facts,
            fact_vectors=_matrix([r["embedding"] for r in fact_rows]),
            entities=[known[r["id"]] for r in embedded],
            entity_vectors=_matrix([r["embedding"] for r in embedded]),
        )

    def top_facts(self, vectors: list[list[float]], k: int, min_score: float) -> list[FactHit]:
        """The ``k`` facts closest to any of ``vectors`` (ties: by id), at or above
        ``min_score``; the same rule as ``semantic.facts_by_vectors``, exactly."""
        if not self.facts or not vectors or k <= 0:
            return []
        best = _best(self.fact_vectors, vectors)
        order = sorted(range(len(self.facts)), key=lambda i: (-best[i], self.facts[i].id))[:k]
        return [
            FactHit(f.id, f.text, float(best[i]), f.entities, f.sources)
            for i in order
            if float(best[i]) >= min_score
            for f in [self.facts[i]]
        ]

    def normalised_top_facts(self, vector: list[float], k: int) -> list[FactHit]:
        """HippoRAG 2's fact linking: every fact's cosine with the query, min-max
        normalised over all the space's facts, the ``k`` best (ties: by id)."""
        if not self.facts or not vector or k <= 0:
            return []
        best = _best(self.fact_vectors, [vector]).astype(np.float64)
        low, span = float(best.min()), float(best.max() - best.min())
        scores = (best - low) / span if span > 0 else np.ones_like(best)
        order = sorted(range(len(self.facts)), key=lambda i: (-scores[i], self.facts[i].id))[:k]
        return [
            FactHit(f.id, f.text, float(scores[i]), f.entities, f.sources)
            for i in order
            for f in [self.facts[i]]
        ]

    def named(self, keys: list[str]) -> list[tuple[SeedEntity, float]]:
        """The entities whose normalised name is one of ``keys`` (cosine 1 by definition)."""
        ids = {entity_id(key) for key in keys}
        return [(e, 1.0) for e in self.entities if e.id in ids]

    def nearest_entities(self, vectors: list[list[float]]) -> list[tuple[SeedEntity, float]]:
        """Each vector's nearest entity of the space with its cosine."""
        if not self.entities or not vectors:
            return []
        scores = self.entity_vectors @ _matrix(vectors).T  # entities x vectors
        picks = scores.argmax(axis=0)
        return [(self.entities[int(i)], float(scores[i, j])) for j, i in enumerate(picks)]


@dataclass
class SpaceSnapshot:
    created: str  # creation time of the projection this snapshot belongs to
    relationships: int  # of that projection (0: nothing to walk)
    node_ids: npt.NDArray[np.int64]
    vectors: Matrix
    by_node: dict[int, PassageRef]
    semantic: SemanticIndex | None  # None: facts and entities are searched in the indexes

    @classmethod
    def load(
        cls, store: GraphStore, space: str, created: str, relationships: int, semantic: bool
    ) -> SpaceSnapshot:
        rows = read_typed(store, "semantic.space_passages", PassageRow, space=space)
        by_node = {r.node_id: r.passage for r in rows}
        node_ids = np.array([r.node_id for r in rows], dtype=np.int64)
        by_id = {ref.id: ref for ref in by_node.values()}
        return cls(
            created=created,
            relationships=relationships,
            node_ids=node_ids,
            vectors=_matrix([r.embedding for r in rows]),
            by_node=by_node,
            semantic=SemanticIndex.load(store, space, by_id) if semantic else None,
        )

    @property
    def by_id(self) -> dict[str, PassageRef]:
        return {ref.id: ref for ref in self.by_node.values()}

    def scores(self, vector: list[float]) -> list[tuple[int, float]]:
        """(node id, cosine) of every passage: the embeddings are unit length."""
        if not len(self.node_ids):
            return []
        cosines = self.vectors @ np.asarray(vector, dtype=np.float32)
        return [(int(n), float(c)) for n, c in zip(self.node_ids, cosines, strict=True)]

    def nearest(self, vector: list[float], k: int) -> list[tuple[PassageRef, float]]:
        ranked = sorted(self.scores(vector), key=lambda item: -item[1])[:k]
        return [(self.by_node[node], score) for node, score in ranked]
